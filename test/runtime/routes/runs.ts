// /v1/runs: get, list (by task), artifacts (paged), cancel, resume, fork, and the SSE event stream.
import { serveEventStream } from '../eventStream';
import { badRequest, conflict, notFound } from '../httpErrors';
import { pageOf, parsePageParams, parseUpdatedAfter } from '../pagination';
import type { RunRecord } from '../records';
import { parseReviewComments } from '../reviewComments';
import type { ForkInputs } from '../runtimeCore';
import { parseBudget, requestedBudget } from '../spend';
import { jsonWrite, type RequestContext, type Route } from './routeTypes';
import { parsePlacement, validateAttachments } from './tasks';

const MAX_INSTRUCTIONS_CHARS = 10000;

/** The optional follow-up of a resume or fork: a string, or absent (an empty one counts as absent). */
function parseInstructions(body: Record<string, unknown>): string | undefined {
  const { instructions } = body;
  if (instructions === undefined || instructions === null) {
    return undefined;
  }
  if (typeof instructions !== 'string') {
    throw badRequest('instructions must be a string.', 'instructions');
  }
  if (instructions.length > MAX_INSTRUCTIONS_CHARS) {
    throw badRequest(`instructions must be at most ${MAX_INSTRUCTIONS_CHARS} characters.`, 'instructions');
  }
  const trimmed = instructions.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A server without budgets (fault missingEndpoints 'budgets'). */
function budgetsOff(ctx: RequestContext): boolean {
  return ctx.faults.current.missingEndpoints?.includes('budgets') === true;
}

/**
 * A fork's own `context` and `attachments` (docs/PROTOCOL.md, Fork), checked as task creation
 * checks them: the new run starts from that commit and works on those attachments instead of the
 * task's. `context` needs a project task; a commit the project's checkout lacks is 400 unknown_commit.
 */
async function forkInputs(ctx: RequestContext, run: RunRecord, body: Record<string, unknown>): Promise<ForkInputs> {
  const inputs: ForkInputs = {};
  if (body.context !== undefined && body.context !== null) {
    const task = ctx.core.tasks.get(run.task_id);
    const { context } = parsePlacement({ context: body.context });
    if (task?.project_id === undefined) {
      throw badRequest('context is for a run of a project task.', 'context');
    }
    await ctx.core.checkPlacement({ project_id: task.project_id, context });
    inputs.context = context;
  }
  if (body.attachments !== undefined && body.attachments !== null) {
    inputs.attachments = validateAttachments(body.attachments, ctx.core);
  }
  return inputs;
}

function requireRun(ctx: RequestContext): RunRecord {
  const run = ctx.core.runs.get(ctx.params[0]);
  if (!run) {
    throw notFound(`No run with id ${ctx.params[0]}.`, 'id');
  }
  return run;
}

/** `after` from the query, else the standard SSE reconnection header Last-Event-ID, else 0. */
function parseAfterSequence(ctx: RequestContext): number {
  const query = ctx.url.searchParams.get('after');
  const header = ctx.req.headers['last-event-id'];
  const raw = query ?? (typeof header === 'string' ? header : null);
  const param = query !== null ? 'after' : 'Last-Event-ID';
  if (raw === null || raw === '') {
    return 0;
  }
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw badRequest(`${param} must be a non-negative integer sequence.`, param);
  }
  return Number(raw);
}

export const runRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/runs$/,
    async handle(ctx) {
      const params = parsePageParams(ctx.url.searchParams);
      const taskId = ctx.url.searchParams.get('task_id');
      if (taskId !== null && !ctx.core.tasks.get(taskId)) {
        throw notFound(`No task with id ${taskId}.`, 'task_id');
      }
      const include = (run: RunRecord): boolean => taskId === null || run.task_id === taskId;
      const after = parseUpdatedAfter(ctx.url.searchParams);
      const records = after === undefined ? ctx.core.runs.newestFirst() : ctx.core.runs.changedAfter(after);
      return { status: 200, body: pageOf(records, params, include) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/runs\/([^/]+)$/,
    async handle(ctx) {
      return { status: 200, body: requireRun(ctx) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/runs\/([^/]+)\/artifacts$/,
    async handle(ctx) {
      const run = requireRun(ctx);
      const params = parsePageParams(ctx.url.searchParams);
      return {
        status: 200,
        body: pageOf(ctx.core.artifacts.newestFirst(), params, (artifact) => artifact.run_id === run.id),
      };
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/runs\/([^/]+)\/cancel$/,
    async prepare(ctx) {
      requireRun(ctx);
      for await (const _chunk of ctx.req) {
        // The body carries nothing; drain it.
      }
      return {
        fingerprint: 'cancel',
        discard: () => undefined,
        commit: async () => ({ status: 200, body: ctx.core.cancelRun(ctx.params[0]) }),
      };
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/runs\/([^/]+)\/resume$/,
    async prepare(ctx) {
      const run = requireRun(ctx);
      return jsonWrite((body) => ({
        status: 201,
        body: ctx.core.resumeRun(
          run.id,
          parseInstructions(body),
          parseReviewComments(body),
          requestedBudget(body, budgetsOff(ctx)),
        ),
      }))(ctx);
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/runs\/([^/]+)\/fork$/,
    async prepare(ctx) {
      const run = requireRun(ctx);
      return jsonWrite(async (body) => {
        const after = body.after_sequence;
        if (typeof after !== 'number' || !Number.isSafeInteger(after) || after < 1) {
          throw badRequest(
            'after_sequence must be a positive integer: the last event of the source to keep.',
            'after_sequence',
            after === undefined ? 'missing_parameter' : 'invalid_parameter',
          );
        }
        const inputs = await forkInputs(ctx, run, body);
        return {
          status: 201,
          body: ctx.core.forkRun(
            run.id,
            after,
            parseInstructions(body),
            parseReviewComments(body),
            requestedBudget(body, budgetsOff(ctx)),
            inputs,
          ),
        };
      })(ctx);
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/runs\/([^/]+)\/budget$/,
    async prepare(ctx) {
      const run = requireRun(ctx);
      return jsonWrite((body) => {
        if (body.amount === undefined) {
          throw badRequest('The body is the new budget {amount, currency}.', 'amount', 'missing_parameter');
        }
        // The body is the budget itself: its errors name amount and currency.
        const budget = parseBudget(body, '') as NonNullable<RunRecord['budget']>;
        if (ctx.faults.takeBudgetTooLow()) {
          throw conflict('budget_too_low', 'The new budget must be above what the run has spent.', 'amount').with({
            run: ctx.core.runs.get(run.id),
          });
        }
        return { status: 200, body: ctx.core.raiseBudget(run.id, budget) };
      })(ctx);
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/runs\/([^/]+)\/events$/,
    async handle(ctx) {
      const run = requireRun(ctx);
      const after = parseAfterSequence(ctx);
      const log = ctx.core.logFor(run.id);
      if (!log) {
        throw notFound(`No run with id ${run.id}.`, 'id');
      }
      const faults = ctx.faults.current;
      await serveEventStream(ctx.res, log, {
        after,
        keepAliveMs: ctx.keepAliveMs,
        lineEnding: faults.sseLineEnding ?? '\n',
        chunkBytes: faults.sseChunkBytes,
        retryMs: faults.sseRetryMs,
        dropAfterEvents: ctx.faults.streamEventBudget(),
      });
      return undefined;
    },
  },
];
