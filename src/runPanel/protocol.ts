// The typed messages between the run panel's host (src/runPanel) and its webview (src/webview),
// and their checks. Only messages: the run-event shapes they carry live in src/runEvents.
// Pure types and constants: no vscode, no Node, no DOM.
import { APPROVAL_ID } from '../runEvents/ids';
import { type LogFilter, MAX_QUERY_CHARS, parseLogFilter } from '../runEvents/logQuery';
import { isRecordId, type LinkedRecord } from '../runEvents/recordLinks';
import { runActionById } from '../runEvents/runActions';
import type { ApprovalCardView, RunSnapshot, WireEvent } from '../runEvents/wire';
import type { UiStringKey } from './uiStrings';

export { DEFAULT_UI_STRINGS, type UiStringKey } from './uiStrings';

/** What the header knows about the run beyond its events (GET /v1/runs/{id}, the task's objective). */
export interface RunInfo {
  runId: string;
  objective?: string;
  status?: string;
  startedAt?: string;
  completedAt?: string;
  /** The run's cost, e.g. "0.12 USD" (docs/PROTOCOL.md, Usage and spend). */
  cost?: string;
  /**
   * The run record's cap (`budget`) and cost (`usage.cost`) as received, for the spend meter
   * (docs/PROTOCOL.md, Budgets); the run's spend events update both. null when the record has none.
   */
  budget?: ReceivedMoney | null;
  spent?: ReceivedMoney | null;
  /** A cancel was accepted; shown until the terminal event. */
  cancelling?: boolean;
  /** null when none: an `info` message is merged into the webview's, and JSON drops undefined. */
  approval?: ApprovalCardView | null;
  /**
   * false when the server does not offer steering (cancel, resume, fork answered 404/405): the
   * panel hides those controls. Absent means "not known to be missing" (older hosts).
   */
  steering?: boolean;
  /**
   * The run's log on disk reached its size limit after this sequence: paging,
   * find, filters and export reach no further; later events show only as they arrive.
   */
  logCappedAfter?: number;
  /**
   * Review comments written on this run in this workspace and not sent yet (src/reviewTalk,
   * handed to the panel by the composition root): the header's "Send N Comments to the
   * Agent...". 0 when none.
   */
  draftComments?: number;
}

/**
 * An amount as the server sent it, bounded for a message: never trusted as checked, the webview
 * checks it with the money type (src/common/money.ts) where it draws it. A string past
 * MAX_RECEIVED_CHARS is cut (it was too long to be an amount anyway).
 */
export interface ReceivedMoney {
  amount: string | number | null;
  currency: string | null;
}

export const MAX_RECEIVED_CHARS = 64;

function cutText(value: string): string {
  return value.length > MAX_RECEIVED_CHARS ? `${value.slice(0, MAX_RECEIVED_CHARS)}…` : value;
}

/** The host's side: a record's `{amount, currency}` in any shape, bounded; undefined when absent. */
export function receivedMoney(value: unknown): ReceivedMoney | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  const record = (typeof value === 'object' ? value : { amount: value }) as { amount?: unknown; currency?: unknown };
  const { amount, currency } = record;
  return {
    amount:
      typeof amount === 'string'
        ? cutText(amount)
        : typeof amount === 'number'
          ? Number.isFinite(amount)
            ? amount
            : String(amount)
          : amount === undefined || amount === null
            ? null
            : cutText(String(JSON.stringify(amount) ?? amount)),
    currency: typeof currency === 'string' ? cutText(currency) : null,
  };
}

/** The webview's side: a ReceivedMoney of a host message, or undefined when it is not one. */
export function readReceivedMoney(raw: unknown): ReceivedMoney | undefined {
  if (typeof raw !== 'object' || raw === null) {
    return undefined;
  }
  const { amount, currency } = raw as Record<string, unknown>;
  const amountOk =
    amount === null ||
    (typeof amount === 'string' && amount.length <= MAX_RECEIVED_CHARS + 1) ||
    (typeof amount === 'number' && Number.isFinite(amount));
  const currencyOk = currency === null || (typeof currency === 'string' && currency.length <= MAX_RECEIVED_CHARS + 1);
  return amountOk && currencyOk ? { amount, currency } : undefined;
}

/** The connection as the webview shows it; messages are already user-facing sentences. */
export type ConnectionView =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'reconnecting'; attempt: number; delayMs: number; reason: string }
  | { state: 'ended'; status: string }
  | { state: 'failed'; message: string; signInNeeded: boolean };

export interface ArtifactView {
  id: string;
  name: string;
  bytes?: number;
  contentType?: string;
}

export type ArtifactsView =
  | { state: 'none' }
  | { state: 'loading' }
  | { state: 'loaded'; artifacts: ArtifactView[]; truncated: boolean }
  | { state: 'failed'; message: string };

/**
 * Localised strings the webview shows (the host owns l10n). Keys added since the host's list was
 * last brought up to date are optional: the webview falls back to English for them.
 */
export type UiStrings = Record<UiStringKey, string>;

/** Host -> webview. */
export type HostMessage =
  | {
      type: 'reset';
      snapshot: RunSnapshot;
      info: RunInfo;
      connection: ConnectionView;
      artifacts: ArtifactsView;
      strings: UiStrings;
      /** The message's number, for the webview's `ack` (absent from older hosts). */
      batch?: number;
    }
  | { type: 'events'; events: WireEvent[]; batch?: number }
  | { type: 'info'; info: RunInfo }
  | { type: 'connection'; connection: ConnectionView }
  | { type: 'artifacts'; artifacts: ArtifactsView }
  /**
   * The answer to the webview's `page`: events of the whole log (the host keeps it, src/runLog)
   * that pass the filter, in sequence order. `before` / `after`: more such events exist on that
   * side. `total`: how many events pass the filter in the whole log, when the host knows it.
   */
  | { type: 'page'; requestId: number; events: WireEvent[]; before: boolean; after: boolean; total?: number }
  /**
   * Progress and result of a `find`, possibly several messages per request (the last has
   * `done`). `sequence`: the match to show (absent while none is found, or when there is none);
   * `ordinal`: its 1-based place among all matches once counted; `count`: matches counted so far;
   * `scanned` of `total`: events searched.
   */
  | {
      type: 'found';
      requestId: number;
      sequence?: number;
      ordinal?: number;
      count: number;
      scanned: number;
      total: number;
      done: boolean;
    }
  /** Show this event (a link from elsewhere: the URI handler, a notification, the tree). */
  | { type: 'reveal'; sequence: number };

/** The most events one `page` request may ask for. */
export const MAX_PAGE_EVENTS = 500;

/** Webview -> host. */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'retry' }
  | { type: 'signIn' }
  | { type: 'copy'; text: string; what: 'runId' | 'json' }
  /** Every host message up to this `batch` number is applied (the host's flow control). */
  | { type: 'ack'; batch: number }
  /** The whole event as the server sent it (a kept event may be cut): to the clipboard, or opened as JSON. */
  | { type: 'copyEvent' | 'openEvent'; sequence: number }
  | { type: 'openArtifact'; artifactId: string }
  | { type: 'saveArtifact'; artifactId: string }
  /** Steering: the host confirms and asks for instructions or a note itself. */
  /** A run action of the table (src/runEvents/runActions.ts); an `event` action names its event. */
  | { type: 'runAction'; action: string; sequence?: number }
  | { type: 'decide'; approvalId: string; decision: 'approve' | 'deny' }
  /**
   * Open a record the event at `sequence` names (runEvents/recordLinks.ts): a tool call's
   * invocation record or a memory entry. The host reads the event again and opens only a record
   * it names.
   */
  | { type: 'openRecord'; sequence: number; record: LinkedRecord; id: string }
  /** The description of the tool the approval card (of this approval) asks for. */
  | { type: 'openTool'; approvalId: string }
  /**
   * Events of the whole log that pass `filter`: up to `limit` before (older than) `sequence`,
   * after (newer than) it, or around it (it included when it passes). Answered by `page`.
   */
  | {
      type: 'page';
      requestId: number;
      sequence: number;
      direction: 'before' | 'after' | 'around';
      limit: number;
      filter: LogFilter;
    }
  /**
   * Search the whole log (events passing `filter`) for `query` (logQuery.ts matchesQuery), the
   * next match after `from` or the previous one before it, wrapping; counts all matches on the
   * way. A new find supersedes the running one. Answered by `found`.
   */
  | { type: 'find'; requestId: number; query: string; filter: LogFilter; from: number; direction: 'next' | 'prev' }
  /** Stop a running find (the find bar closed). */
  | { type: 'stopFind' }
  /** The whole run to a file the user picks (Markdown transcript or JSON lines), or as text in an editor. */
  | { type: 'export'; format: 'markdown' | 'jsonl' }
  | { type: 'openTranscript' }
  /**
   * "Send N Comments to the Agent..." for this panel's run: `count` is the N the button showed.
   * The host runs the same command as the Tasks row, whose preview shows what goes out.
   */
  | { type: 'sendComments'; count: number };

/** A bound on the count a `sendComments` message may name (the workspace keeps at most 500 comments). */
export const MAX_DRAFT_COUNT = 10_000;

/** What the webview keeps with vscode.setState, and what the serializer restores a panel from. */
export interface PersistedState {
  runId: string;
  lastSequence: number;
  objective?: string;
  snapshot?: RunSnapshot;
  /** The panel's filter and search text, restored with it. */
  filter?: LogFilter;
  query?: string;
}

export const RUN_PANEL_VIEW_TYPE = 'agentRuntime.run';

/** Checks an untrusted message from the webview before the host acts on it. */
export function parseWebviewMessage(raw: unknown): WebviewMessage | undefined {
  if (typeof raw !== 'object' || raw === null) {
    return undefined;
  }
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
    case 'retry':
    case 'signIn':
      return { type: m.type };
    case 'copy':
      if (typeof m.text === 'string' && (m.what === 'runId' || m.what === 'json')) {
        return { type: 'copy', text: m.text, what: m.what };
      }
      return undefined;
    case 'openArtifact':
    case 'saveArtifact':
      if (typeof m.artifactId === 'string') {
        return { type: m.type, artifactId: m.artifactId };
      }
      return undefined;
    case 'ack':
      if (typeof m.batch === 'number' && Number.isSafeInteger(m.batch) && m.batch >= 0) {
        return { type: 'ack', batch: m.batch };
      }
      return undefined;
    case 'runAction': {
      const action = runActionById(m.action);
      if (!action) {
        return undefined;
      }
      if (action.panel === 'header') {
        return { type: 'runAction', action: action.id };
      }
      return isSequence(m.sequence, false) ? { type: 'runAction', action: action.id, sequence: m.sequence } : undefined;
    }
    case 'decide':
      if (
        typeof m.approvalId === 'string' &&
        APPROVAL_ID.test(m.approvalId) &&
        (m.decision === 'approve' || m.decision === 'deny')
      ) {
        return { type: 'decide', approvalId: m.approvalId, decision: m.decision };
      }
      return undefined;
    case 'openRecord':
      if (isSequence(m.sequence, false) && (m.record === 'invocation' || m.record === 'memory') && isRecordId(m.id)) {
        return { type: 'openRecord', sequence: m.sequence, record: m.record, id: m.id };
      }
      return undefined;
    case 'openTool':
      if (typeof m.approvalId === 'string' && APPROVAL_ID.test(m.approvalId)) {
        return { type: 'openTool', approvalId: m.approvalId };
      }
      return undefined;
    case 'page': {
      const filter = parseLogFilter(m.filter);
      if (!isRequestId(m.requestId) || !isSequence(m.sequence, true) || !filter) {
        return undefined;
      }
      if (m.direction !== 'before' && m.direction !== 'after' && m.direction !== 'around') {
        return undefined;
      }
      if (typeof m.limit !== 'number' || !Number.isSafeInteger(m.limit) || m.limit < 1 || m.limit > MAX_PAGE_EVENTS) {
        return undefined;
      }
      return {
        type: 'page',
        requestId: m.requestId,
        sequence: m.sequence,
        direction: m.direction,
        limit: m.limit,
        filter,
      };
    }
    case 'find': {
      const filter = parseLogFilter(m.filter);
      if (!isRequestId(m.requestId) || !isSequence(m.from, true) || !filter) {
        return undefined;
      }
      if (typeof m.query !== 'string' || m.query.length > MAX_QUERY_CHARS) {
        return undefined;
      }
      if (m.direction !== 'next' && m.direction !== 'prev') {
        return undefined;
      }
      return { type: 'find', requestId: m.requestId, query: m.query, filter, from: m.from, direction: m.direction };
    }
    case 'stopFind':
    case 'openTranscript':
      return { type: m.type };
    case 'export':
      if (m.format === 'markdown' || m.format === 'jsonl') {
        return { type: 'export', format: m.format };
      }
      return undefined;
    case 'sendComments':
      if (typeof m.count === 'number' && Number.isSafeInteger(m.count) && m.count > 0 && m.count <= MAX_DRAFT_COUNT) {
        return { type: 'sendComments', count: m.count };
      }
      return undefined;
    case 'copyEvent':
    case 'openEvent':
      if (typeof m.sequence === 'number' && Number.isSafeInteger(m.sequence) && m.sequence > 0) {
        return { type: m.type, sequence: m.sequence };
      }
      return undefined;
    default:
      return undefined;
  }
}

function isRequestId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A sequence as a message may name it; 0 ("before the first event") only where `zero` allows. */
function isSequence(value: unknown, zero: boolean): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && (zero ? value >= 0 : value > 0);
}
