// /v1/tools: the registry (list with query, get) and the invocation records of the agent's tool calls.
import { badRequest, notFound } from '../httpErrors';
import { pageOf, parsePageParams } from '../pagination';
import { INVOCATION_STATUSES, type InvocationRecord, type ToolRecord } from '../records';
import type { Route } from './routeTypes';

function matchesQuery(tool: ToolRecord, query: string): boolean {
  const text = `${tool.name} ${tool.description}`.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.includes(word));
}

export const toolRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/tools\/invocations$/,
    async handle(ctx) {
      const q = ctx.url.searchParams;
      const params = parsePageParams(q);
      const runId = q.get('run_id');
      const tool = q.get('tool');
      const status = q.get('status');
      if (status !== null && !INVOCATION_STATUSES.includes(status)) {
        throw badRequest(`status must be one of ${INVOCATION_STATUSES.join(', ')}.`, 'status');
      }
      if (runId !== null && !ctx.core.runs.get(runId)) {
        throw notFound(`No run with id ${runId}.`, 'run_id');
      }
      const include = (r: InvocationRecord): boolean =>
        (runId === null || r.run_id === runId) &&
        (tool === null || r.tool === tool) &&
        (status === null || r.status === status);
      return { status: 200, body: pageOf(ctx.core.tools.invocations.newestFirst(), params, include) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/tools\/invocations\/([^/]+)$/,
    async handle(ctx) {
      return { status: 200, body: ctx.core.tools.requireInvocation(ctx.params[0]) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/tools$/,
    async handle(ctx) {
      const q = ctx.url.searchParams;
      const params = parsePageParams(q);
      const query = q.get('query')?.trim();
      return {
        status: 200,
        body: pageOf(ctx.core.tools.tools.newestFirst(), params, (t) => !query || matchesQuery(t, query)),
      };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/tools\/([^/]+)$/,
    async handle(ctx) {
      return { status: 200, body: ctx.core.tools.requireTool(ctx.params[0]) };
    },
  },
];
