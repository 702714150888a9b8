// /v1/webhooks: callback endpoints (list, create with the secret once, delete, a signed test delivery).
import { pageOf, parsePageParams } from '../pagination';
import { jsonWrite, readBody, type Route } from './routeTypes';

export const webhookRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/webhooks$/,
    async handle(ctx) {
      return {
        status: 200,
        body: pageOf(ctx.core.webhooks.store.newestFirst(), parsePageParams(ctx.url.searchParams)),
      };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/webhooks\/([^/]+)$/,
    async handle(ctx) {
      return { status: 200, body: ctx.core.webhooks.require(ctx.params[0]) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/webhooks$/,
    prepare: (ctx) =>
      jsonWrite((body) => {
        const { url, events } = ctx.core.webhooks.validate(body);
        return { status: 201, body: ctx.core.webhooks.create(url, events) };
      })(ctx),
  },
  {
    method: 'DELETE',
    pattern: /^\/v1\/webhooks\/([^/]+)$/,
    async handle(ctx) {
      const id = ctx.params[0];
      ctx.core.webhooks.delete(id);
      return { status: 200, body: { id, object: 'webhook', deleted: true } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/webhooks\/([^/]+)\/test$/,
    async prepare(ctx) {
      const id = ctx.params[0];
      ctx.core.webhooks.require(id);
      await readBody(ctx.req);
      return {
        fingerprint: 'test',
        commit: async () => ({ status: 200, body: await ctx.core.webhooks.test(id) }),
        discard: () => undefined,
      };
    },
  },
];
