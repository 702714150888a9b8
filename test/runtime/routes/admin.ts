// /__admin: fault switches and synthetic runs for tests and benchmarks in another process.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { badRequest, notFound } from '../httpErrors';
import { isTerminalStatus } from '../records';
import type { SyntheticApproval } from '../runtimeCore';
import { jsonWrite, type RequestContext, type Route } from './routeTypes';

function requireRunId(ctx: RequestContext): string {
  const id = ctx.params[0];
  if (!ctx.core.runs.get(id)) {
    throw notFound(`No run with id ${id}.`, 'id');
  }
  return id;
}

/** `approval`: true (defaults) or {step_id?, tool?, arguments?, reason?, expires_in_ms?}. */
function parseSyntheticApproval(value: unknown): SyntheticApproval | undefined {
  if (value === undefined || value === null || value === false) {
    return undefined;
  }
  if (value === true) {
    return {};
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('approval must be true or an object.', 'approval');
  }
  const raw = value as Record<string, unknown>;
  const text = (key: string): string | undefined => {
    const v = raw[key];
    if (v === undefined) {
      return undefined;
    }
    if (typeof v !== 'string' || v === '') {
      throw badRequest(`approval.${key} must be a non-empty string.`, `approval.${key}`);
    }
    return v;
  };
  const args = raw.arguments;
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw badRequest('approval.arguments must be an object.', 'approval.arguments');
  }
  const expires = raw.expires_in_ms;
  if (expires !== undefined && (typeof expires !== 'number' || !Number.isInteger(expires) || expires < 0)) {
    throw badRequest('approval.expires_in_ms must be a non-negative integer.', 'approval.expires_in_ms');
  }
  return {
    stepId: text('step_id'),
    tool: text('tool'),
    reason: text('reason'),
    arguments: args as Record<string, unknown> | undefined,
    expiresInMs: expires,
  };
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
        ctx.faults.set(body);
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
        if (typeof events !== 'number' || !Number.isInteger(events) || events < 0) {
          throw badRequest('events must be a non-negative integer.', 'events');
        }
        const terminal = body.terminal;
        if (
          terminal !== undefined &&
          terminal !== null &&
          (typeof terminal !== 'string' || !isTerminalStatus(terminal))
        ) {
          throw badRequest('terminal must be completed, failed, cancelled or null.', 'terminal');
        }
        const cost = body.cost;
        if (cost !== undefined && (typeof cost !== 'string' || !/^\d+(\.\d{1,2})?$/.test(cost))) {
          throw badRequest('cost must be a decimal string such as "12.40".', 'cost');
        }
        const runId = await ctx.core.createSyntheticRun({
          events,
          terminal,
          live: body.live === true,
          unknownKinds: body.unknownKinds === true,
          taskObjective: typeof body.taskObjective === 'string' ? body.taskObjective : undefined,
          approval: parseSyntheticApproval(body.approval),
          cost,
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
        if (log?.ended) {
          throw badRequest('The run has already ended.', 'id', 'run_ended');
        }
        if (typeof body.raw === 'string') {
          ctx.core.appendRawEvent(runId, body.raw);
          return { status: 200, body: { appended: 'raw' } };
        }
        if (typeof body.event !== 'string' || body.event === '') {
          throw badRequest('event must be a non-empty string (or pass raw).', 'event');
        }
        const data =
          typeof body.data === 'object' && body.data !== null && !Array.isArray(body.data)
            ? (body.data as Record<string, unknown>)
            : {};
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
        if (typeof status !== 'string' || !isTerminalStatus(status)) {
          throw badRequest('status must be completed, failed or cancelled.', 'status');
        }
        if (ctx.core.logFor(runId)?.ended) {
          throw badRequest('The run has already ended.', 'id', 'run_ended');
        }
        return { status: 200, body: { sequence: ctx.core.endRun(runId, status) } };
      })(ctx),
  },
  {
    // Tests: the local git repository that stands in for the project's clone (README "Projects").
    method: 'POST',
    pattern: /^\/__admin\/projects\/([^/]+)\/checkout$/,
    prepare: (ctx) =>
      jsonWrite((body) => {
        const id = ctx.params[0];
        if (!ctx.core.projects.get(id)) {
          throw notFound(`No project with id ${id}.`, 'id');
        }
        if (typeof body.path !== 'string' || !path.isAbsolute(body.path) || !fs.existsSync(body.path)) {
          throw badRequest('path must be the absolute path of a local git repository.', 'path');
        }
        ctx.core.setProjectCheckout(id, body.path);
        return { status: 200, body: { project_id: id, path: body.path } };
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
