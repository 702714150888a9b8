// /v1/memory: what the agent knows (list with query/project/tag filters, get, create, patch with version, delete).
import { badRequest } from '../httpErrors';
import { validateContent, validateTags } from '../memoryStore';
import { parsePageParams } from '../pagination';
import { jsonWrite, readJsonObject, type Route } from './routeTypes';

const MAX_QUERY_CHARS = 1000;

export const memoryRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/memory$/,
    async handle(ctx) {
      const q = ctx.url.searchParams;
      const params = parsePageParams(q);
      const query = q.get('query') ?? undefined;
      if (query !== undefined && query.length > MAX_QUERY_CHARS) {
        throw badRequest(`query must be at most ${MAX_QUERY_CHARS} characters.`, 'query');
      }
      const projectId = q.get('project_id') ?? undefined;
      const tags = q.getAll('tag').filter((t) => t !== '');
      return { status: 200, body: ctx.core.memory.list({ query, projectId, tags }, params) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/memory\/([^/]+)$/,
    async handle(ctx) {
      return { status: 200, body: ctx.core.memory.require(ctx.params[0]) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/memory$/,
    prepare: (ctx) =>
      jsonWrite((body) => {
        const content = validateContent(body.content, true) as string;
        const tags = validateTags(body.tags) ?? [];
        const projectId = body.project_id;
        if (projectId !== undefined && projectId !== null && (typeof projectId !== 'string' || projectId === '')) {
          throw badRequest('project_id must be a project id.', 'project_id');
        }
        return { status: 201, body: ctx.core.memory.create(content, tags, (projectId as string | null) ?? undefined) };
      })(ctx),
  },
  {
    method: 'PATCH',
    pattern: /^\/v1\/memory\/([^/]+)$/,
    async handle(ctx) {
      const id = ctx.params[0];
      ctx.core.memory.require(id);
      const body = await readJsonObject(ctx);
      const { version } = body;
      if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) {
        throw badRequest(
          'version must be the integer version the change is based on.',
          'version',
          version === undefined ? 'missing_parameter' : 'invalid_parameter',
        );
      }
      const content = validateContent(body.content, false);
      const tags = validateTags(body.tags);
      return {
        status: 200,
        body: ctx.core.memory.update(id, version, {
          ...(content !== undefined ? { content } : {}),
          ...(tags !== undefined ? { tags } : {}),
        }),
      };
    },
  },
  {
    method: 'DELETE',
    pattern: /^\/v1\/memory\/([^/]+)$/,
    async handle(ctx) {
      const id = ctx.params[0];
      ctx.core.memory.delete(id);
      return { status: 200, body: { id, object: 'memory', deleted: true } };
    },
  },
];
