// /v1/usage: this period's spend (the sum of run costs) and the quota.
import type { Route } from './routeTypes';

export const usageRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/usage$/,
    async handle(ctx) {
      return { status: 200, body: ctx.core.usage() };
    },
  },
];
