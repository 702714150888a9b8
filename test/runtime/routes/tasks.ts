// /v1/tasks: create (validated; starts the built-in agent), get, list.
import { badRequest, notFound } from '../httpErrors';
import { pageOf, parsePageParams, parseUpdatedAfter } from '../pagination';
import { COMMIT_PATTERN } from '../projectRepository';
import type { TaskAttachment, TaskContext } from '../records';
import type { RuntimeCore, TaskPlacement } from '../runtimeCore';
import { requestedBudget } from '../spend';
import { jsonWrite, type Route } from './routeTypes';

export function validateTaskRequest(
  body: Record<string, unknown>,
  core: RuntimeCore,
): { objective: string; attachments: TaskAttachment[] } {
  const { objective, attachments } = body;
  if (typeof objective !== 'string' || objective.trim() === '') {
    throw badRequest(
      'objective must be a non-empty string.',
      'objective',
      objective === undefined ? 'missing_parameter' : 'invalid_parameter',
    );
  }
  return { objective, attachments: validateAttachments(attachments, core) };
}

/** `attachments` of a task or a fork: [] when absent; each a known file, at most the limit. */
export function validateAttachments(attachments: unknown, core: RuntimeCore): TaskAttachment[] {
  if (attachments === undefined || attachments === null) {
    return [];
  }
  if (!Array.isArray(attachments)) {
    throw badRequest('attachments must be an array of {type: "document", fileId}.', 'attachments');
  }
  const limit = core.settings.maxAttachments;
  if (attachments.length > limit) {
    throw badRequest(
      `A task takes at most ${limit} attachments; this one has ${attachments.length}.`,
      'attachments',
      'too_many_attachments',
    ).with({ limit });
  }
  const checked: TaskAttachment[] = [];
  attachments.forEach((item: unknown, index) => {
    const at = `attachments[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw badRequest(`${at} must be an object {type: "document", fileId}.`, at);
    }
    const { type, fileId } = item as Record<string, unknown>;
    if (type !== 'document') {
      throw badRequest(`${at}.type must be "document".`, `${at}.type`);
    }
    if (typeof fileId !== 'string' || fileId === '') {
      throw badRequest(`${at}.fileId must be the id of an uploaded file.`, `${at}.fileId`);
    }
    if (!core.files.get(fileId)) {
      throw notFound(`No file with id ${fileId} (${at}.fileId).`, `${at}.fileId`);
    }
    checked.push({ type: 'document', fileId });
  });
  return checked;
}

/** project_id and context {ref?, commit?} as sent; whether they exist is the core's to check. */
export function parsePlacement(body: Record<string, unknown>): TaskPlacement {
  const { project_id: projectId, context } = body;
  const placement: TaskPlacement = {};
  if (projectId !== undefined && projectId !== null) {
    if (typeof projectId !== 'string' || projectId === '') {
      throw badRequest('project_id must be the id of a project.', 'project_id');
    }
    placement.project_id = projectId;
  }
  if (context !== undefined && context !== null) {
    if (typeof context !== 'object' || Array.isArray(context)) {
      throw badRequest('context must be an object {ref?, commit?}.', 'context');
    }
    const { ref, commit } = context as Record<string, unknown>;
    const checked: TaskContext = {};
    if (ref !== undefined) {
      if (typeof ref !== 'string' || ref.trim() === '' || ref.length > 250) {
        throw badRequest('context.ref must be a branch name.', 'context.ref');
      }
      checked.ref = ref;
    }
    if (commit !== undefined) {
      if (typeof commit !== 'string' || !COMMIT_PATTERN.test(commit)) {
        throw badRequest('context.commit must be a 40-hex commit id.', 'context.commit');
      }
      checked.commit = commit;
    }
    placement.context = checked;
  }
  return placement;
}

export const taskRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/v1\/tasks$/,
    prepare: (ctx) =>
      jsonWrite(async (body) => {
        const request = validateTaskRequest(body, ctx.core);
        const budget = requestedBudget(body, ctx.faults.current.missingEndpoints?.includes('budgets') === true);
        const placement = { ...parsePlacement(body), ...(budget !== undefined ? { budget } : {}) };
        await ctx.core.checkPlacement(placement);
        return { status: 201, body: ctx.core.createTask(request.objective, request.attachments, placement) };
      })(ctx),
  },
  {
    method: 'GET',
    pattern: /^\/v1\/tasks$/,
    async handle(ctx) {
      const projectId = ctx.url.searchParams.get('project_id');
      const include = projectId === null ? undefined : (task: { project_id?: string }) => task.project_id === projectId;
      const params = parsePageParams(ctx.url.searchParams);
      const after = parseUpdatedAfter(ctx.url.searchParams);
      const records = after === undefined ? ctx.core.tasks.newestFirst() : ctx.core.tasks.changedAfter(after);
      return { status: 200, body: pageOf(records, params, include) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/tasks\/([^/]+)$/,
    async handle(ctx) {
      const task = ctx.core.tasks.get(ctx.params[0]);
      if (!task) {
        throw notFound(`No task with id ${ctx.params[0]}.`, 'id');
      }
      return { status: 200, body: task };
    },
  },
];
