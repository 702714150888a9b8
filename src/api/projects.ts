// Projects (docs/PROTOCOL.md, Projects; assumed): list, get, create, delete. The ApiClient methods
// delegate here, through the one request path like steering.ts. A server without /v1/projects
// (404/405) gives ApiError 'not_supported': the extension hides the project actions with a message.
import { ApiError } from './errors';
import { clampLimit } from './pagination';
import { parseDeleted, parsePage, parseRecord } from './parse';
import { pathSegment } from './pathSegment';
import type { Query } from './requestPath';
import { assumedGet, assumedSend, type SteeringCaller, type SteeringOptions, whenListMissing } from './steering';
import type { CreateProjectRequest, DeletedFile, Page, PageParams, ProjectRecord } from './types';

/** The codes of the project answers, on ApiError.code. */
export const ProjectErrors = {
  exists: 'project_exists',
  notFound: 'project_not_found',
  unknownCommit: 'unknown_commit',
} as const;

const WHAT = 'projects';

function projectRecord(value: unknown): ProjectRecord {
  return parseRecord<ProjectRecord>(value, 'project');
}

/** The existing project a 409 project_exists answer carried, if it is a usable record. */
export function existingProject(err: unknown): ProjectRecord | undefined {
  if (!(err instanceof ApiError) || err.status !== 409 || err.code !== ProjectErrors.exists || !err.project) {
    return undefined;
  }
  return typeof err.project.id === 'string' && err.project.id !== '' ? (err.project as ProjectRecord) : undefined;
}

/**
 * True when a URL carries user info that may be a secret: any in a scheme URL (`https://TOKEN@host`,
 * `https://user:token@host`), a password in the scp form (`user:token@host:path`; `git@host:path`
 * names the ssh account and is fine). Such a URL is never sent.
 */
export function hasUserInfo(url: string): boolean {
  const text = url.trim();
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(text) || /^[^/@\s]*:[^/@\s]*@[^/]*:/.test(text);
}

function notOffered(err: ApiError): ApiError {
  return new ApiError({
    kind: 'not_supported',
    status: err.status,
    code: err.code,
    requestId: err.requestId,
    message: `This server does not offer ${WHAT} (it answered ${err.status}).`,
  });
}

/**
 * 404 from a list or a create can only mean the endpoint is missing. On one project, a 404 that
 * is not project_not_found is told apart by a second look at the list.
 */
async function orUnsupported<T>(request: Promise<T>, endpointMissing: () => Promise<boolean>): Promise<T> {
  try {
    return await request;
  } catch (err) {
    if (!(err instanceof ApiError)) {
      throw err;
    }
    if (err.kind === 'not_supported') {
      throw err;
    }
    if (err.status !== 404 || err.code === ProjectErrors.notFound) {
      throw err;
    }
    if (!(await endpointMissing().catch(() => false))) {
      throw err;
    }
    throw notOffered(err);
  }
}

const always = async (): Promise<boolean> => true;

export async function listProjects(
  caller: SteeringCaller,
  params: PageParams = {},
  signal?: AbortSignal,
): Promise<Page<ProjectRecord>> {
  const query: Query = {
    limit: params.limit === undefined ? undefined : clampLimit(params.limit),
    after: params.after,
  };
  const request = assumedGet(caller, '/projects', query, signal, (v) =>
    parsePage<ProjectRecord>(v, WHAT, caller.logger),
  );
  return orUnsupported(request, always);
}

export async function getProject(caller: SteeringCaller, id: string, signal?: AbortSignal): Promise<ProjectRecord> {
  const request = assumedGet(caller, `/projects/${pathSegment(id)}`, undefined, signal, projectRecord);
  return orUnsupported(request, whenListMissing(caller, '/projects'));
}

/** 201 the project; 409 project_exists with the existing one (`existingProject(err)`). */
export async function createProject(
  caller: SteeringCaller,
  body: CreateProjectRequest,
  opts: SteeringOptions = {},
): Promise<ProjectRecord> {
  const name = typeof body?.name === 'string' ? body.name.trim() : '';
  if (name === '') {
    throw new ApiError({ kind: 'validation', param: 'name', message: 'A project needs a name.' });
  }
  const url = typeof body.repository?.url === 'string' ? body.repository.url.trim() : '';
  if (url === '') {
    throw new ApiError({
      kind: 'validation',
      param: 'repository.url',
      message: 'A project needs the clone URL of its repository.',
    });
  }
  // The URL itself is not repeated: it may be the very secret this refuses to send.
  if (hasUserInfo(url)) {
    throw new ApiError({
      kind: 'validation',
      param: 'repository.url',
      message: 'The clone URL carries a user name or token; remove it before creating the project.',
    });
  }
  const branch =
    typeof body.repository.default_branch === 'string' && body.repository.default_branch.trim() !== ''
      ? { default_branch: body.repository.default_branch }
      : {};
  const request = assumedSend(
    caller,
    'POST',
    '/projects',
    { name, repository: { url, ...branch } },
    opts,
    projectRecord,
  );
  return orUnsupported(request, always);
}

export async function deleteProject(
  caller: SteeringCaller,
  id: string,
  opts: { signal?: AbortSignal } = {},
): Promise<DeletedFile> {
  const request = assumedSend(caller, 'DELETE', `/projects/${pathSegment(id)}`, undefined, opts, (v) =>
    parseDeleted(v, id),
  );
  return orUnsupported(request, whenListMissing(caller, '/projects'));
}
