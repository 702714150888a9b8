// /v1/connectors: installations (list, get), taking back one grant, revoking a whole connector.
import { pageOf, parsePageParams } from '../pagination';
import { readBody, type Route } from './routeTypes';

export const connectorRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/connectors$/,
    async handle(ctx) {
      return {
        status: 200,
        body: pageOf(ctx.core.connectors.store.newestFirst(), parsePageParams(ctx.url.searchParams)),
      };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/connectors\/([^/]+)$/,
    async handle(ctx) {
      return { status: 200, body: ctx.core.connectors.require(ctx.params[0]) };
    },
  },
  {
    method: 'DELETE',
    pattern: /^\/v1\/connectors\/([^/]+)\/grants\/([^/]+)$/,
    async handle(ctx) {
      return { status: 200, body: ctx.core.connectors.removeGrant(ctx.params[0], ctx.params[1]) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/connectors\/([^/]+)\/revoke$/,
    async prepare(ctx) {
      const id = ctx.params[0];
      ctx.core.connectors.require(id);
      await readBody(ctx.req);
      return {
        fingerprint: 'revoke',
        commit: async () => ({ status: 200, body: ctx.core.connectors.revoke(id) }),
        discard: () => undefined,
      };
    },
  },
];
