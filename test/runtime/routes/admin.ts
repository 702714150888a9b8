// /__admin: fault switches and synthetic runs for tests and benchmarks in another process.
import type { FaultSettings } from '../faults';
import { badRequest, notFound } from '../httpErrors';
import { isTerminalStatus } from '../records';
import { jsonWrite, type RequestContext, type Route } from './routeTypes';

function requireRunId(ctx: RequestContext): string {
  const id = ctx.params[0];
  if (!ctx.core.runs.get(id)) throw notFound(`No run with id ${id}.`, 'id');
  return id;
}

export const adminRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/__admin\/faults$/,
    async handle(ctx) {
      return { status: 200, body: ctx.faults.current };
    },
  },
  {
    method: 'POST',
    pattern: /^\/__admin\/faults$/,
    prepare: (ctx) =>
      jsonWrite((body) => {
        ctx.faults.set(body as FaultSettings);
        return { status: 200, body: ctx.faults.current };
      })(ctx),
  },
  {
    method: 'DELETE',
    pattern: /^\/__admin\/faults$/,
    async handle(ctx) {
      ctx.faults.set({});
      return { status: 200, body: ctx.faults.current };
    },
  },
  {
    method: 'POST',
    pattern: /^\/__admin\/runs$/,
    prepare: (ctx) =>
      jsonWrite(async (body) => {
        const events = body.events;
        if (typeof events !== 'number' || !Number.isInteger(events) || events < 0) throw badRequest('events must be a non-negative integer.', 'events');
        const terminal = body.terminal;
        if (terminal !== undefined && terminal !== null && (typeof terminal !== 'string' || !isTerminalStatus(terminal))) {
          throw badRequest('terminal must be completed, failed, cancelled or null.', 'terminal');
        }
        const runId = await ctx.core.createSyntheticRun({
          events,
          terminal,
          live: body.live === true,
          unknownKinds: body.unknownKinds === true,
          taskObjective: typeof body.taskObjective === 'string' ? body.taskObjective : undefined,
        });
        return { status: 201, body: { run_id: runId, task_id: ctx.core.runs.get(runId)?.task_id } };
      })(ctx),
  },
  {
    method: 'POST',
    pattern: /^\/__admin\/runs\/([^/]+)\/events$/,
    prepare: (ctx) =>
      jsonWrite((body) => {
        const runId = requireRunId(ctx);
        const log = ctx.core.logFor(runId);
        if (log?.ended) throw badRequest('The run has already ended.', 'id', 'run_ended');
        if (typeof body.raw === 'string') {
          ctx.core.appendRawEvent(runId, body.raw);
          return { status: 200, body: { appended: 'raw' } };
        }
        if (typeof body.event !== 'string' || body.event === '') throw badRequest('event must be a non-empty string (or pass raw).', 'event');
        const data = typeof body.data === 'object' && body.data !== null && !Array.isArray(body.data) ? (body.data as Record<string, unknown>) : {};
        return { status: 200, body: { sequence: ctx.core.appendEvent(runId, body.event, data) } };
      })(ctx),
  },
  {
    method: 'POST',
    pattern: /^\/__admin\/runs\/([^/]+)\/end$/,
    prepare: (ctx) =>
      jsonWrite((body) => {
        const runId = requireRunId(ctx);
        const status = body.status ?? 'completed';
        if (typeof status !== 'string' || !isTerminalStatus(status)) throw badRequest('status must be completed, failed or cancelled.', 'status');
        if (ctx.core.logFor(runId)?.ended) throw badRequest('The run has already ended.', 'id', 'run_ended');
        return { status: 200, body: { sequence: ctx.core.endRun(runId, status) } };
      })(ctx),
  },
  {
    method: 'GET',
    pattern: /^\/__admin\/runs\/([^/]+)\/log$/,
    async handle(ctx) {
      const runId = requireRunId(ctx);
      return { status: 200, body: { object: 'list', data: ctx.core.logFor(runId)?.summary() ?? [] } };
    },
  },
];
