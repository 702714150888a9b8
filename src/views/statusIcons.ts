// Task and run statuses as the tree shows them: which are finished, which codicon and theme
// colour each gets, and the words shown. Unknown statuses are kept verbatim and treated as
// unfinished (PROTOCOL-NOTES: others shown verbatim), so they are polled rather than ignored.
import type { Translate } from './translate';

export interface StatusIcon {
  /** A codicon id, with a `~spin` modifier where the state is ongoing. */
  id: string;
  /** A theme colour id; undefined keeps the icon's default foreground. */
  color?: string;
}

// Spellings other servers use for the same end states count as finished too, so a tolerant
// tree does not poll a finished run forever.
const COMPLETED = new Set(['completed', 'succeeded', 'success']);
const FAILED = new Set(['failed', 'error', 'errored', 'expired', 'timed_out']);
const CANCELLED = new Set(['cancelled', 'canceled']);

function normalise(status: string | undefined): string | undefined {
  // Statuses come from the server: anything that is not a string is "unknown", never a crash.
  return typeof status === 'string' ? status.trim().toLowerCase() : undefined;
}

/** True for completed, failed and cancelled (and their common synonyms). */
export function isTerminalStatus(status: string | undefined): boolean {
  const s = normalise(status);
  return s !== undefined && (COMPLETED.has(s) || FAILED.has(s) || CANCELLED.has(s));
}

/**
 * True when the record may still change: any status that is not terminal, unknown ones
 * included. A record without a status has nothing to watch, so it is not unfinished.
 */
export function isUnfinishedStatus(status: string | undefined): boolean {
  return normalise(status) !== undefined && normalise(status) !== '' && !isTerminalStatus(status);
}

export function statusIcon(status: string | undefined): StatusIcon {
  const s = normalise(status);
  if (s === undefined || s === '') return { id: 'circle-outline' };
  if (COMPLETED.has(s)) return { id: 'pass', color: 'testing.iconPassed' };
  if (FAILED.has(s)) return { id: 'error', color: 'testing.iconFailed' };
  if (CANCELLED.has(s)) return { id: 'circle-slash', color: 'disabledForeground' };
  if (s === 'running' || s === 'in_progress') return { id: 'sync~spin', color: 'charts.blue' };
  if (s === 'queued' || s === 'pending') return { id: 'clock', color: 'charts.yellow' };
  return { id: 'circle-outline' };
}

/** The status as words: the five known ones translated, anything else verbatim. */
export function statusLabel(status: string | undefined, t: Translate): string | undefined {
  switch (status) {
    case 'queued':
      return t('queued');
    case 'running':
      return t('running');
    case 'completed':
      return t('completed');
    case 'failed':
      return t('failed');
    case 'cancelled':
      return t('cancelled');
    default:
      return status === undefined || status === '' ? undefined : status;
  }
}
