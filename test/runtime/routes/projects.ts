// /v1/projects (docs/PROTOCOL.md, Projects): create (409 project_exists), get, list, delete.
import { badRequest, HttpError } from '../httpErrors';
import { pageOf, parsePageParams } from '../pagination';
import type { ProjectRecord } from '../records';
import type { RuntimeCore } from '../runtimeCore';
import { jsonWrite, type RequestContext, type Route } from './routeTypes';

function requireProject(core: RuntimeCore, id: string): ProjectRecord {
  const project = core.projects.get(id);
  if (!project) {
    throw new HttpError(404, 'invalid_request_error', 'project_not_found', `No project with id ${id}.`, 'id');
  }
  return project;
}

function createProject(ctx: RequestContext, body: Record<string, unknown>): ProjectRecord {
  const { name, repository } = body;
  if (typeof name !== 'string' || name.trim() === '') {
    throw badRequest(
      'name must be a non-empty string.',
      'name',
      name === undefined ? 'missing_parameter' : 'invalid_parameter',
    );
  }
  if (name.length > 200) {
    throw badRequest('name must be at most 200 characters.', 'name');
  }
  if (typeof repository !== 'object' || repository === null || Array.isArray(repository)) {
    throw badRequest('repository must be an object {url, default_branch?}.', 'repository');
  }
  const { url, default_branch: branch } = repository as Record<string, unknown>;
  if (typeof url !== 'string' || url.trim() === '' || url.length > 2000) {
    throw badRequest('repository.url must be a clone URL.', 'repository.url');
  }
  if (branch !== undefined && (typeof branch !== 'string' || branch.trim() === '' || branch.length > 250)) {
    throw badRequest('repository.default_branch must be a branch name.', 'repository.default_branch');
  }
  return ctx.core.createProject(name, url, branch);
}

export const projectRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/v1\/projects$/,
    prepare: (ctx) => jsonWrite((body) => ({ status: 201, body: createProject(ctx, body) }))(ctx),
  },
  {
    method: 'GET',
    pattern: /^\/v1\/projects$/,
    async handle(ctx) {
      return { status: 200, body: pageOf(ctx.core.projects.newestFirst(), parsePageParams(ctx.url.searchParams)) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/projects\/([^/]+)$/,
    async handle(ctx) {
      return { status: 200, body: requireProject(ctx.core, ctx.params[0]) };
    },
  },
  {
    method: 'DELETE',
    pattern: /^\/v1\/projects\/([^/]+)$/,
    async handle(ctx) {
      const project = requireProject(ctx.core, ctx.params[0]);
      ctx.core.deleteProject(project.id);
      return { status: 200, body: { id: project.id, object: 'project', deleted: true } };
    },
  },
];
