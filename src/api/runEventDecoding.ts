// Turns one server-sent message (event name + data text) into a typed RunEvent, or says why
// it cannot: strict on what the spec fixes (a JSON object with an integer `sequence`), tolerant
// on the rest (a known kind with unexpected field types, or an unknown kind, is kept whole).
import { terminalEventStatus } from '../runEvents/runStatus';
import { isTerminalEvent, type RunEvent } from './types';

export type DecodedRunEvent = { ok: true; event: RunEvent } | { ok: false; reason: string };

/** The event name a message without an `event:` line has, as in the SSE specification. */
export const DEFAULT_EVENT_NAME = 'message';

type ShapeCheck = (data: Record<string, unknown>) => boolean;
const isString = (v: unknown): boolean => typeof v === 'string';
const isOptionalString = (v: unknown): boolean => v === undefined || typeof v === 'string';
const endedShape: ShapeCheck = (d) => isOptionalString(d.status);

// The field types of spec section 2 ("Run event record"); the others from docs/PROTOCOL.md, Event types.
const KNOWN_SHAPES: ReadonlyMap<string, ShapeCheck> = new Map<string, ShapeCheck>([
  ['plan.created', (d) => Number.isInteger(d.steps) && isString(d.strategy)],
  ['step.started', (d) => isString(d.step_id) && isString(d.title)],
  ['tool.called', (d) => isString(d.tool) && isString(d.step_id)],
  ['observation.recorded', (d) => isString(d.step_id) && isString(d.summary)],
  ['step.completed', (d) => isString(d.step_id) && Number.isInteger(d.duration_ms)],
  ['run.completed', endedShape],
  ['run.failed', endedShape],
  ['run.cancelled', endedShape],
  // docs/PROTOCOL.md, Approvals: the id and what a person decides on, or what was decided.
  [
    'approval.requested',
    (d) =>
      isString(d.approval_id) &&
      isString(d.tool) &&
      isOptionalString(d.step_id) &&
      isOptionalString(d.reason) &&
      isOptionalString(d.expires_at),
  ],
  ['approval.resolved', (d) => isString(d.approval_id) && isString(d.status) && isOptionalString(d.note)],
]);

/**
 * Decodes one message. `reason` (when not ok) is safe to log: it quotes at most a short,
 * single-line excerpt of the data, which comes from the server and never holds our key.
 */
export function decodeRunEvent(name: string | undefined, dataText: string): DecodedRunEvent {
  const event = name ?? DEFAULT_EVENT_NAME;
  let parsed: unknown;
  try {
    parsed = JSON.parse(dataText);
  } catch {
    return { ok: false, reason: `malformed JSON in the data of a "${excerpt(event)}" message: ${excerpt(dataText)}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return {
      ok: false,
      reason: `the data of a "${excerpt(event)}" message is not a JSON object: ${excerpt(dataText)}`,
    };
  }
  const data = parsed as Record<string, unknown>;
  // A safe, non-negative integer: 1e300 would pass isInteger and make every later event look old.
  if (!Number.isSafeInteger(data.sequence) || (data.sequence as number) < 0) {
    return { ok: false, reason: `a "${excerpt(event)}" message without an integer sequence: ${excerpt(dataText)}` };
  }
  // At the top of the range nothing could follow it: taken as the last sequence, it would make
  // every later event look like a duplicate.
  if ((data.sequence as number) >= Number.MAX_SAFE_INTEGER) {
    return { ok: false, reason: `a "${excerpt(event)}" message whose sequence is out of range: ${excerpt(dataText)}` };
  }
  const typed = data as RunEvent['data'];
  if (KNOWN_SHAPES.get(event)?.(data) === true) {
    // The shape check is exactly the field types of the union member named `event`.
    return { ok: true, event: { event, known: true, data: typed } as RunEvent };
  }
  return { ok: true, event: { event, known: false, data: typed } };
}

/** The status a terminal event reports: its `status` field, else the one its name implies. */
export function terminalStatus(event: RunEvent): string {
  const status = event.data.status;
  if (typeof status === 'string' && status !== '') {
    return status;
  }
  return isTerminalEvent(event.event) ? terminalEventStatus(event.event) : event.event;
}

function excerpt(text: string, max = 120): string {
  const oneLine = text.replace(/[\r\n\t]+/g, ' ');
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}
