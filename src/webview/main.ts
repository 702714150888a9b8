// The run panel's browser app: receives the host's messages, keeps the view model, draws at most
// once a frame, follows the newest event unless the user scrolled up, and persists what a
// restored panel needs. It makes no network request and never sees the API key.
import type { HostMessage, PersistedState, WebviewMessage } from '../runPanel/protocol';
import { initialState, reduce, setFilter, type Change, type Row } from './reducer';
import { applyStrings, createLayout, updateArtifacts, updateEmpty, updateHeader, updateSummary } from './render';
import { ROW_HEIGHT, createRowElement, fillRaw, fillRow } from './renderRows';
import { createSteeringUi, updateSteering } from './steeringUi';
import { VirtualList } from './virtualList';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: PersistedState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/**
 * Redraws of the rows are spaced at least this far apart: while a fast run streams, every draw
 * reflows all visible rows (new text), and 20 a second reads as live.
 */
const MIN_DRAW_INTERVAL_MS = 50;
/** Persisting is throttled; the snapshot saved is small (a restored panel resumes from it). */
const PERSIST_EVERY_MS = 1000;
const PERSIST_LIMITS = { recent: 200, steps: 300 };
const HOST_MESSAGE_TYPES = new Set<unknown>(['reset', 'events', 'info', 'connection', 'artifacts'] satisfies HostMessage['type'][]);

function start(): void {
  const vscode = acquireVsCodeApi();
  const saved = vscode.getState() as Partial<PersistedState> | undefined;
  const state = initialState(typeof saved?.runId === 'string' ? saved.runId : '');
  const root = document.getElementById('app') ?? document.body;
  const layout = createLayout(root, state.strings);
  const steering = createSteeringUi(layout, state.strings);

  let follow = true;
  let expanded: Row | undefined;
  let reconnectDeadline: number | undefined;
  let pending: Change = { rows: false, header: false, artifacts: false, reset: false, appendedOnly: true };
  let frame = 0;
  let drawTimer: ReturnType<typeof setTimeout> | undefined;
  let lastDraw = 0;
  let persistTimer: ReturnType<typeof setTimeout> | undefined;
  let lastPersist = 0;

  const list = new VirtualList<Row>({
    container: layout.timeline,
    rowHeight: ROW_HEIGHT,
    createRow: createRowElement,
    renderRow: (element, row) => fillRow(element, row, state, Date.now(), row === expanded),
    onScroll: () => {
      follow = list.isAtBottom();
      layout.jump.hidden = follow;
    },
    onResize: () => list.render(false, follow),
  });

  function schedule(change: Partial<Change>): void {
    pending = {
      rows: pending.rows || !!change.rows,
      header: pending.header || !!change.header,
      artifacts: pending.artifacts || !!change.artifacts,
      reset: pending.reset || !!change.reset,
      appendedOnly: pending.appendedOnly && change.appendedOnly !== false,
    };
    if (frame !== 0 || drawTimer !== undefined) return;
    const wait = lastDraw + MIN_DRAW_INTERVAL_MS - performance.now();
    // User actions (filter, expand) draw at once; streamed events wait for the interval.
    if (wait <= 0 || change.reset) {
      frame = requestAnimationFrame(draw);
    } else {
      drawTimer = setTimeout(() => {
        drawTimer = undefined;
        frame = requestAnimationFrame(draw);
      }, wait);
    }
  }

  function draw(): void {
    frame = 0;
    lastDraw = performance.now();
    const change = pending;
    pending = { rows: false, header: false, artifacts: false, reset: false, appendedOnly: true };
    const now = Date.now();
    if (change.reset) applyStrings(layout, state.strings);
    if (change.header || change.rows) {
      updateHeader(layout, state, now, secondsLeft());
      updateSummary(layout, state);
      const terminal = state.model.terminalEvent;
      updateSteering(steering, state.info, state.strings, terminal !== undefined, terminal?.status ?? state.info.status);
    }
    if (change.artifacts) updateArtifacts(layout, state);
    if (change.rows) {
      list.setItems(state.visible);
      placeDetail();
      updateEmpty(layout, state);
      list.render(change.reset, follow);
    }
  }

  function placeDetail(): void {
    if (!expanded) {
      list.setDetail(-1, undefined, 0);
      return;
    }
    const index = state.visible.indexOf(expanded);
    if (index < 0) {
      list.setDetail(-1, undefined, 0);
      return;
    }
    list.setDetail(index, layout.raw, fillRaw(layout, expanded, state.strings));
  }

  function secondsLeft(): number | undefined {
    return reconnectDeadline === undefined ? undefined : Math.max(0, Math.ceil((reconnectDeadline - Date.now()) / 1000));
  }

  function persist(): void {
    persistTimer = undefined;
    lastPersist = Date.now();
    if (!state.runId) return;
    vscode.setState({
      runId: state.runId,
      lastSequence: state.model.lastSequence,
      objective: state.info.objective,
      snapshot: state.model.snapshot(PERSIST_LIMITS),
    });
  }

  function schedulePersist(): void {
    if (persistTimer !== undefined) return;
    persistTimer = setTimeout(persist, Math.max(0, lastPersist + PERSIST_EVERY_MS - Date.now()));
  }

  window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
    const message = event.data;
    if (!message || typeof message !== 'object' || !HOST_MESSAGE_TYPES.has(message.type)) return;
    if (message.type === 'reset') expanded = undefined;
    if (message.type === 'connection') {
      const c = message.connection;
      reconnectDeadline = c.state === 'reconnecting' ? Date.now() + c.delayMs : undefined;
    }
    if (message.type === 'reset' && message.connection.state === 'reconnecting') {
      reconnectDeadline = Date.now() + message.connection.delayMs;
    }
    const change = reduce(state, message);
    // Tells the host this batch is taken, so it sends the next (and collapses a backlog otherwise).
    if ((message.type === 'events' || message.type === 'reset') && message.batch !== undefined) vscode.postMessage({ type: 'ack', batch: message.batch });
    schedule(change);
    if (change.rows || message.type === 'info') schedulePersist();
    if (state.model.terminalEvent) schedulePersist();
  });

  // Clicks: the run id copy, Retry / Sign in, Jump to latest, row expansion, artifact actions.
  layout.copyRunId.addEventListener('click', () => vscode.postMessage({ type: 'copy', text: state.runId, what: 'runId' }));
  layout.retry.addEventListener('click', () => vscode.postMessage({ type: 'retry' }));
  // After the end of the run, Retry lists the artifacts again.
  layout.artifactsRetry.addEventListener('click', () => vscode.postMessage({ type: 'retry' }));
  layout.signIn.addEventListener('click', () => vscode.postMessage({ type: 'signIn' }));
  layout.rawCopy.addEventListener('click', (event) => {
    event.stopPropagation();
    if (!expanded?.raw) return;
    // A cut event is copied whole: the host reads it again from the server's log.
    if (expanded.raw.truncatedBytes !== undefined) vscode.postMessage({ type: 'copyEvent', sequence: expanded.sequence });
    else vscode.postMessage({ type: 'copy', text: JSON.stringify(expanded.raw.data, null, 2), what: 'json' });
  });
  layout.rawOpen.addEventListener('click', (event) => {
    event.stopPropagation();
    if (expanded?.raw) vscode.postMessage({ type: 'openEvent', sequence: expanded.sequence });
  });
  steering.cancel.addEventListener('click', () => vscode.postMessage({ type: 'cancel' }));
  steering.resume.addEventListener('click', () => vscode.postMessage({ type: 'resume' }));
  steering.review.addEventListener('click', () => vscode.postMessage({ type: 'review' }));
  steering.fork.addEventListener('click', (event) => {
    event.stopPropagation();
    if (expanded) vscode.postMessage({ type: 'fork', sequence: expanded.sequence });
  });
  const decide = (decision: 'approve' | 'deny') => {
    const approvalId = steering.card.dataset.approvalId;
    if (approvalId) vscode.postMessage({ type: 'decide', approvalId, decision });
  };
  steering.approve.addEventListener('click', () => decide('approve'));
  steering.deny.addEventListener('click', () => decide('deny'));
  layout.jump.addEventListener('click', () => {
    follow = true;
    layout.jump.hidden = true;
    list.render(false, true);
  });
  const toggleRow = (target: EventTarget | null) => {
    const element = target instanceof Element ? target.closest<HTMLElement>('.row') : null;
    if (!element) return;
    const sequence = Number(element.dataset.sequence);
    const row = state.visible.find((r) => r.sequence === sequence && r.raw);
    if (!row) return;
    expanded = expanded === row ? undefined : row;
    schedule({ rows: true, reset: true });
  };
  layout.timeline.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('#raw-detail')) return;
    toggleRow(event.target);
  });
  layout.timeline.addEventListener('keydown', (event) => {
    const moves: Record<string, (i: number) => number> = {
      ArrowDown: (i) => i + 1,
      ArrowUp: (i) => i - 1,
      Home: () => 0,
      End: () => state.visible.length - 1,
      PageDown: (i) => i + 20,
      PageUp: (i) => i - 20,
    };
    const move = moves[event.key];
    if (move) {
      const current = event.target instanceof HTMLElement && event.target.classList.contains('row') ? Number(event.target.dataset.index) : -1;
      const target = Math.max(0, Math.min(state.visible.length - 1, move(current)));
      event.preventDefault();
      list.reveal(target)?.focus({ preventScroll: true });
      return;
    }
    if (event.key !== 'Enter' && event.key !== ' ') return;
    if (event.target instanceof Element && event.target.closest('#raw-detail')) return;
    event.preventDefault();
    toggleRow(event.target);
  });
  layout.artifactsList.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLElement>('button[data-action]') : null;
    const artifactId = button?.closest<HTMLElement>('[data-artifact-id]')?.dataset.artifactId;
    if (!button || artifactId === undefined) return;
    vscode.postMessage({ type: button.dataset.action === 'saveArtifact' ? 'saveArtifact' : 'openArtifact', artifactId });
  });

  // Filtering re-runs over every row, so typing is debounced.
  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  const applyFilter = () => {
    setFilter(state, { kind: layout.kindFilter.value, text: layout.search.value });
    schedule({ rows: true, reset: true });
  };
  layout.kindFilter.addEventListener('change', applyFilter);
  layout.search.addEventListener('input', () => {
    if (searchTimer !== undefined) clearTimeout(searchTimer);
    searchTimer = setTimeout(applyFilter, 150);
  });

  // Live figures: elapsed times and the reconnect countdown.
  setInterval(() => {
    updateHeader(layout, state, Date.now(), secondsLeft());
    list.render(true);
  }, 1000);

  vscode.postMessage({ type: 'ready' });
}

start();
