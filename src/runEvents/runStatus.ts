// Run and task statuses, one home for every surface (tree, status bar, notifications, the run
// panel's webview, the event subscription): which statuses and event names end a run, the
// codicon and colour of each, and the words shown. Pure: no vscode, no DOM.
// Unknown statuses are kept verbatim and treated as unfinished (docs/PROTOCOL.md, Statuses: others shown
// verbatim), so they are watched rather than ignored.
import type { Translate } from '../common/translate';

/** The event names that end a run's log (docs/PROTOCOL.md, Event types). */
export const TERMINAL_EVENTS = ['run.completed', 'run.failed', 'run.cancelled'] as const;
export type TerminalEventName = (typeof TERMINAL_EVENTS)[number];

export function isTerminalEvent(name: string): name is TerminalEventName {
  return (TERMINAL_EVENTS as readonly string[]).includes(name);
}

/** The status a terminal event stands for: `run.failed` -> `failed`. */
export function terminalEventStatus(name: TerminalEventName): string {
  return name.slice('run.'.length);
}

/**
 * Where a run is after its newest own event, without waiting for a poll: ended (the terminal
 * event's status), waiting for an approval or at its cap, else running.
 */
export function statusAfterEvent(name: string): string {
  if (isTerminalEvent(name)) {
    return terminalEventStatus(name);
  }
  if (name === 'approval.requested') {
    return 'awaiting_approval';
  }
  return name === 'budget.reached' ? 'awaiting_budget' : 'running';
}

/** What a status means, whatever its spelling. */
export type StatusKind =
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'running'
  | 'queued'
  | 'awaiting_approval'
  | 'awaiting_budget'
  | 'unknown'
  | 'none';

// Spellings other servers use for the same end states count as finished too, so a tolerant
// client does not watch a finished run forever.
const KINDS: ReadonlyMap<string, StatusKind> = new Map([
  ['completed', 'completed'],
  ['succeeded', 'completed'],
  ['success', 'completed'],
  ['failed', 'failed'],
  ['error', 'failed'],
  ['errored', 'failed'],
  ['expired', 'failed'],
  ['timed_out', 'failed'],
  ['cancelled', 'cancelled'],
  ['canceled', 'cancelled'],
  ['running', 'running'],
  ['in_progress', 'running'],
  ['queued', 'queued'],
  ['pending', 'queued'],
  ['awaiting_approval', 'awaiting_approval'],
  // At its spending cap (docs/PROTOCOL.md, Budgets): waits for a person to raise it or stop the run.
  ['awaiting_budget', 'awaiting_budget'],
]);

export function statusKind(status: unknown): StatusKind {
  // Statuses come from the server: anything that is not a string is "none", never a crash.
  if (typeof status !== 'string' || status.trim() === '') {
    return 'none';
  }
  return KINDS.get(status.trim().toLowerCase()) ?? 'unknown';
}

/** True for completed, failed and cancelled (and their common synonyms). */
export function isTerminalStatus(status: unknown): boolean {
  const kind = statusKind(status);
  return kind === 'completed' || kind === 'failed' || kind === 'cancelled';
}

/**
 * True when the record may still change: any status that is not terminal, unknown ones
 * included. A record without a status has nothing to watch, so it is not unfinished.
 */
export function isUnfinishedStatus(status: unknown): boolean {
  const kind = statusKind(status);
  return kind !== 'none' && !isTerminalStatus(status);
}

/** True when a run that ended this way can go on from its last completed step (Resume). */
export function isResumableStatus(status: unknown): boolean {
  const kind = statusKind(status);
  return kind === 'failed' || kind === 'cancelled';
}

export interface StatusIcon {
  /** A codicon id (no modifier). */
  id: string;
  /** Whether the icon turns (an ongoing state): `~spin` in the tree, a CSS class in the panel. */
  spin: boolean;
  /** A theme colour id; undefined keeps the icon's default foreground. */
  color?: string;
  /** The same colour as the panel's CSS names it. */
  tone: '' | 'ok' | 'error' | 'muted' | 'spin' | 'attention';
}

const ICONS: Record<StatusKind, StatusIcon> = {
  completed: { id: 'pass', spin: false, color: 'testing.iconPassed', tone: 'ok' },
  failed: { id: 'error', spin: false, color: 'testing.iconFailed', tone: 'error' },
  cancelled: { id: 'circle-slash', spin: false, color: 'disabledForeground', tone: 'muted' },
  running: { id: 'sync', spin: true, color: 'charts.blue', tone: 'spin' },
  queued: { id: 'clock', spin: false, color: 'charts.yellow', tone: 'muted' },
  awaiting_approval: { id: 'bell-dot', spin: false, color: 'charts.orange', tone: 'attention' },
  awaiting_budget: { id: 'credit-card', spin: false, color: 'charts.orange', tone: 'attention' },
  unknown: { id: 'question', spin: false, tone: '' },
  none: { id: 'circle-outline', spin: false, tone: 'muted' },
};

export function statusIcon(status: unknown): StatusIcon {
  return ICONS[statusKind(status)];
}

/** The status as words: the known ones translated, anything else verbatim. */
export function statusLabel(status: unknown, t: Translate): string | undefined {
  switch (statusKind(status)) {
    case 'none':
      return undefined;
    case 'unknown':
      return String(status);
    default:
      break;
  }
  switch (String(status).trim().toLowerCase()) {
    case 'queued':
      return t('queued');
    case 'running':
      return t('running');
    case 'awaiting_approval':
      return t('waiting for approval');
    case 'awaiting_budget':
      return t('waiting at its spending cap');
    case 'completed':
      return t('completed');
    case 'failed':
      return t('failed');
    case 'cancelled':
      return t('cancelled');
    default:
      // A synonym (e.g. "succeeded"): the server's own word.
      return String(status);
  }
}
