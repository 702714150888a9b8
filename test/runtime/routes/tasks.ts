// /v1/tasks: create (validated; starts the built-in agent), get, list.
import { badRequest, notFound } from '../httpErrors';
import { pageOf, parsePageParams } from '../pagination';
import type { TaskAttachment } from '../records';
import type { RuntimeCore } from '../runtimeCore';
import { jsonWrite, type Route } from './routeTypes';

export function validateTaskRequest(body: Record<string, unknown>, core: RuntimeCore): { objective: string; attachments: TaskAttachment[] } {
  const { objective, attachments } = body;
  if (typeof objective !== 'string' || objective.trim() === '') {
    throw badRequest('objective must be a non-empty string.', 'objective', objective === undefined ? 'missing_parameter' : 'invalid_parameter');
  }
  if (attachments === undefined || attachments === null) return { objective, attachments: [] };
  if (!Array.isArray(attachments)) throw badRequest('attachments must be an array of {type: "document", fileId}.', 'attachments');
  const limit = core.settings.maxAttachments;
  if (attachments.length > limit) {
    throw badRequest(`A task takes at most ${limit} attachments; this one has ${attachments.length}.`, 'attachments', 'too_many_attachments').with({ limit });
  }
  const checked: TaskAttachment[] = [];
  attachments.forEach((item: unknown, index) => {
    const at = `attachments[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw badRequest(`${at} must be an object {type: "document", fileId}.`, at);
    const { type, fileId } = item as Record<string, unknown>;
    if (type !== 'document') throw badRequest(`${at}.type must be "document".`, `${at}.type`);
    if (typeof fileId !== 'string' || fileId === '') throw badRequest(`${at}.fileId must be the id of an uploaded file.`, `${at}.fileId`);
    if (!core.files.get(fileId)) throw notFound(`No file with id ${fileId} (${at}.fileId).`, `${at}.fileId`);
    checked.push({ type: 'document', fileId });
  });
  return { objective, attachments: checked };
}

export const taskRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/v1\/tasks$/,
    prepare: (ctx) =>
      jsonWrite((body) => {
        const request = validateTaskRequest(body, ctx.core);
        return { status: 201, body: ctx.core.createTask(request.objective, request.attachments) };
      })(ctx),
  },
  {
    method: 'GET',
    pattern: /^\/v1\/tasks$/,
    async handle(ctx) {
      return { status: 200, body: pageOf(ctx.core.tasks.newestFirst(), parsePageParams(ctx.url.searchParams)) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/tasks\/([^/]+)$/,
    async handle(ctx) {
      const task = ctx.core.tasks.get(ctx.params[0]);
      if (!task) throw notFound(`No task with id ${ctx.params[0]}.`, 'id');
      return { status: 200, body: task };
    },
  },
];
