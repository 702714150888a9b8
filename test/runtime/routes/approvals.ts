// /v1/approvals: the human-in-the-loop decisions the agent waits on (list, get, decide).
import { badRequest, notFound } from '../httpErrors';
import { pageOf, parsePageParams } from '../pagination';
import { APPROVAL_STATUSES, type ApprovalRecord } from '../records';
import { jsonWrite, type RequestContext, type Route } from './routeTypes';

function requireApproval(ctx: RequestContext): ApprovalRecord {
  const approval = ctx.core.approvals.get(ctx.params[0]);
  if (!approval) {
    throw notFound(`No approval with id ${ctx.params[0]}.`, 'id');
  }
  return approval;
}

export const approvalRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/approvals$/,
    async handle(ctx) {
      const params = parsePageParams(ctx.url.searchParams);
      const status = ctx.url.searchParams.get('status');
      if (status !== null && !APPROVAL_STATUSES.includes(status)) {
        throw badRequest(`status must be one of ${APPROVAL_STATUSES.join(', ')}.`, 'status');
      }
      const runId = ctx.url.searchParams.get('run_id');
      if (runId !== null && !ctx.core.runs.get(runId)) {
        throw notFound(`No run with id ${runId}.`, 'run_id');
      }
      ctx.core.approvals.expireDue();
      const include = (a: ApprovalRecord): boolean =>
        (status === null || a.status === status) && (runId === null || a.run_id === runId);
      return { status: 200, body: pageOf(ctx.core.approvals.store.newestFirst(), params, include) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/approvals\/([^/]+)$/,
    async handle(ctx) {
      return { status: 200, body: requireApproval(ctx) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/approvals\/([^/]+)\/decision$/,
    async prepare(ctx) {
      const { id } = requireApproval(ctx);
      return jsonWrite(async (body) => {
        const { decision, note } = body;
        if (decision !== 'approve' && decision !== 'deny') {
          throw badRequest(
            'decision must be "approve" or "deny".',
            'decision',
            decision === undefined ? 'missing_parameter' : 'invalid_parameter',
          );
        }
        if (note !== undefined && typeof note !== 'string') {
          throw badRequest('note must be a string.', 'note');
        }
        const delayMs = ctx.faults.current.decisionDelayMs;
        if (delayMs !== undefined && delayMs > 0) {
          await new Promise((resolve) => setTimeout(resolve, delayMs));
        }
        const elsewhere =
          ctx.core.approvals.get(id)?.status === 'pending' ? ctx.faults.takeDecisionConflict() : undefined;
        // Fault: another person (another window) decides first, so this decision meets a 409.
        if (elsewhere) {
          ctx.core.decide(id, elsewhere, 'Decided elsewhere.');
        }
        return { status: 200, body: ctx.core.decide(id, decision, note) };
      })(ctx);
    },
  },
];
