// What the run panel's header shows about steering, from the events and the run record: the
// approval the run waits on (the last approval.requested not yet resolved) and the run's cost.
// Pure: shared by the host and its tests.
import type { ApprovalCardView, WireEvent } from './wire';

/** Big arguments stay data, but the card shows at most this much of them (and says so). */
const MAX_ARGUMENTS_CHARS = 16_000;

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The card's text of a call's arguments: indented JSON, cut past MAX_ARGUMENTS_CHARS. */
export function argumentsJson(value: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(value ?? {}, null, 2) ?? '{}';
  } catch {
    json = '{}';
  }
  return json.length > MAX_ARGUMENTS_CHARS ? `${json.slice(0, MAX_ARGUMENTS_CHARS)}\n…` : json;
}

/** The approval waited on after `events`, given the one before; a terminal event clears it. */
export function nextApproval(
  current: ApprovalCardView | undefined,
  events: readonly WireEvent[],
): ApprovalCardView | undefined {
  let approval = current;
  for (const e of events) {
    const d = e.data;
    if (e.event === 'approval.requested' && typeof d.approval_id === 'string') {
      const shown = argumentsJson(d.arguments);
      approval = {
        approvalId: d.approval_id,
        sequence: d.sequence,
        tool: text(d.tool) ?? '?',
        stepId: text(d.step_id),
        reason: text(d.reason),
        expiresAt: text(d.expires_at),
        argumentsJson: shown,
        // What the card shows is not the whole: the event was cut to the panel's budget, or the text here.
        ...(e.truncatedBytes !== undefined || shown.length > MAX_ARGUMENTS_CHARS ? { argumentsCut: true } : {}),
      };
    } else if (e.event === 'approval.resolved' && approval && d.approval_id === approval.approvalId) {
      approval = undefined;
    } else if (e.event.startsWith('run.') && ['run.completed', 'run.failed', 'run.cancelled'].includes(e.event)) {
      approval = undefined;
    }
  }
  return approval;
}

/** "0.12 USD" from a run record's `usage.cost` (docs/PROTOCOL.md, Usage and spend); undefined when absent or odd. */
export function costText(run: unknown): string | undefined {
  const cost = (run as { usage?: { cost?: { amount?: unknown; currency?: unknown } } } | undefined)?.usage?.cost;
  const amount = typeof cost?.amount === 'number' ? String(cost.amount) : cost?.amount;
  if (typeof amount !== 'string' || amount === '') {
    return undefined;
  }
  return typeof cost?.currency === 'string' && cost.currency !== '' ? `${amount} ${cost.currency}` : amount;
}
