// The run panel's browser app, composed: host messages into the view model, a bounded window onto
// the run's log paged in from the host, the follow mode and jumps. It makes no network request and
// never sees the API key. Drawing, paging, persistence and the controls are in their own files.
import type { HostMessage, PersistedState } from '../runPanel/protocol';
import { Announcer } from './announcer';
import { FindState } from './findBar';
import { setText } from './dom';
import { createOutline } from './outline';
import {
  applyPage,
  firstSequence,
  fromLogFilter,
  initialState,
  isFiltered,
  lastSequence,
  rebuildAtEnd,
  reduce,
  setFilter,
  toLogFilter,
  type Change,
  type Row,
} from './reducer';
import { applyStrings, createLayout, readFilter } from './layout';
import { focusedRowSequence, updateArtifacts, updateEmpty, updateHeader, updateJumpButton, updateSummary } from './render';
import { ROW_HEIGHT, createRowElement, fillRow } from './renderRows';
import { createSteeringUi, updateSteering } from './steeringUi';
import { VirtualList } from './virtualList';
import { DetailPlacement } from './detailPlacement';
import { Flash } from './flash';
import { DrawScheduler } from './drawScheduler';
import { Persistence } from './persistence';
import { rowPosition, windowItems } from './windowItems';
import { PageRequests, type PendingPage, type Purpose } from './pageRequests';
import { vscodeApi } from './vscodeApi';
import { wireControls } from './controls';
import { wireFindControls } from './findControls';
import { wireTimelineKeys } from './timelineKeys';

const HOST_MESSAGE_TYPES = new Set<unknown>(['reset', 'events', 'info', 'connection', 'artifacts', 'page', 'found', 'reveal'] satisfies HostMessage['type'][]);
/** A page is asked for when the view comes this many rows from the window's edge. */
const EDGE_ROWS = 40;

function start(): void {
  const vscode = vscodeApi();
  const saved = vscode.getState() as Partial<PersistedState> | undefined;
  const state = initialState(typeof saved?.runId === 'string' ? saved.runId : '');
  state.filter = fromLogFilter(saved?.filter);
  const root = document.getElementById('app') ?? document.body;
  const layout = createLayout(root, state.strings);
  const steering = createSteeringUi(layout, state.strings);
  const announcer = new Announcer(root, () => state.strings);
  const find = new FindState();
  if (typeof saved?.query === 'string') layout.search.value = saved.query;

  let follow = true;
  /** model.totalEvents when the user stopped following (for "N new"). */
  let totalWhenLeft = 0;
  let expanded: Row | undefined;
  let reconnectDeadline: number | undefined;
  let generation = 0;
  const pages = new PageRequests(vscode);
  const drawer = new DrawScheduler(draw);
  const persistence = new Persistence(vscode, state, () => layout.search.value);
  /** What the list shows: the window's rows between the "earlier" and "later" rows. */
  let items: Row[] = [];

  const list = new VirtualList<Row>({
    container: layout.timeline,
    rowHeight: ROW_HEIGHT,
    createRow: createRowElement,
    renderRow: (element, row) =>
      fillRow(element, row, state, Date.now(), { expanded: row === expanded, query: find.query, currentMatch: find.current, flash: flash.sequence }),
    onScroll: (ours) => {
      const atBottom = list.isAtBottom() && !state.window.hasAfter;
      // The list moving itself (rows trimmed above while streaming) never stops the follow mode.
      if (ours && follow) {
        loadAtEdges();
        return;
      }
      if (follow && !atBottom) totalWhenLeft = state.model.totalEvents;
      follow = atBottom;
      updateJump();
      loadAtEdges();
    },
    onResize: () => list.render(false, follow),
    position: (row, index) => rowPosition(state, items, row, index),
  });

  const details = new DetailPlacement(layout, steering, list);
  const flash = new Flash(() => list.render(true));
  const outline = createOutline(layout.outlineList, () => state.strings, (step) => goTo(step.startSequence, false));

  function draw(change: Change): void {
    const now = Date.now();
    if (change.reset) applyStrings(layout, state.strings);
    if (change.header || change.rows) {
      updateHeader(layout, state, now, secondsLeft());
      updateSummary(layout, state);
      const terminal = state.model.terminalEvent;
      updateSteering(steering, state.info, state.strings, terminal !== undefined, terminal?.status ?? state.info.status);
      outline.update(state, change.reset);
    }
    if (change.artifacts) updateArtifacts(layout, state);
    if (change.rows || change.header) drawRows(change.reset);
    updateJump();
    setText(layout.findStatus, find.status(state.strings, state.info.logCappedAfter));
  }

  /** Lays out the list now (a page answer must keep the view in place in the same frame). */
  function drawRows(force: boolean, shift = 0): void {
    items = windowItems(state);
    list.setItems(items);
    details.place(items, expanded, state.info.approval ?? undefined, state.strings);
    updateEmpty(layout, state);
    list.shiftBy(shift);
    list.render(force, follow);
    loadAtEdges();
  }

  function updateJump(): void {
    updateJumpButton(layout, state, !follow || state.window.hasAfter, totalWhenLeft);
  }

  function secondsLeft(): number | undefined {
    return reconnectDeadline === undefined ? undefined : Math.max(0, Math.ceil((reconnectDeadline - Date.now()) / 1000));
  }

  // ---- the window: pages from the host ----

  function requestPage(direction: PendingPage['direction'], sequence: number, purpose: Purpose, target?: number, focus?: boolean): void {
    pages.request({ direction, purpose, target, focus, generation }, sequence, toLogFilter(state.filter));
  }

  /** Near an edge of the window with more beyond it: ask for the next page that way. */
  function loadAtEdges(): void {
    if (state.rows.length === 0 && !state.window.hasBefore) return;
    const w = state.window;
    if (w.hasBefore && list.nearTop(EDGE_ROWS) && !follow && !pages.loading('before')) requestPage('before', firstSequence(state), 'scroll');
    else if (w.hasBefore && follow && items.length * ROW_HEIGHT < layout.timeline.clientHeight && !pages.loading('before')) {
      // A filtered window that does not fill the view: fill it from the host.
      requestPage('before', firstSequence(state), 'scroll');
    }
    if (w.hasAfter && list.nearBottom(EDGE_ROWS) && !pages.loading('after')) requestPage('after', lastSequence(state), 'scroll');
  }

  function onPage(message: Extract<HostMessage, { type: 'page' }>): void {
    const request = pages.take(message.requestId);
    if (!request) return;
    if (request.generation !== generation) return;
    const focused = focusedRowSequence();
    const direction = request.purpose === 'end' ? 'around' : request.direction;
    const page = request.purpose === 'end' ? { ...message, after: false } : message;
    const { addedTop, removedTop } = applyPage(state, direction, page);
    if (direction === 'around') expanded = undefined;
    if (request.purpose === 'jump') follow = false;
    if (request.purpose === 'end') follow = true;
    drawRows(true, request.purpose === 'scroll' ? addedTop - removedTop : 0);
    if (request.target !== undefined) show(request.target, request.focus === true);
    else if (focused !== undefined) refocus(focused);
    updateJump();
    drawer.schedule({ header: true });
  }

  function refocus(sequence: number): void {
    const index = items.findIndex((r) => r.sequence === sequence);
    if (index >= 0) list.elementAt(index)?.focus({ preventScroll: true });
  }

  /** Scrolls the row of `sequence` (or the nearest after it) into the middle, highlighted briefly. */
  function show(sequence: number, focus: boolean): boolean {
    let index = items.findIndex((r) => r.sequence === sequence);
    if (index < 0) index = items.findIndex((r) => r.sequence > sequence);
    if (index < 0) return false;
    follow = false;
    flash.set(items[index].sequence);
    list.render(true);
    const element = list.center(index);
    list.render(true);
    if (focus) element?.focus({ preventScroll: true });
    updateJump();
    return true;
  }

  /** "Go to sequence N", a reveal from elsewhere, an outline or find jump. */
  function goTo(sequence: number, keepFocus: boolean): void {
    if (!Number.isSafeInteger(sequence) || sequence < 0) return;
    if (items.some((r) => r.sequence === sequence) && !pages.replacing()) {
      show(sequence, !keepFocus);
      return;
    }
    requestPage('around', sequence, 'jump', sequence, !keepFocus);
  }

  function jumpToNewest(): void {
    follow = true;
    generation++; // no answer to an earlier request may pull the view away from the end again
    pages.clear();
    if (state.window.hasAfter) {
      rebuildAtEnd(state);
      expanded = undefined;
    }
    drawRows(true);
    list.render(false, true);
    updateJump();
  }

  // ---- find and filters ----

  function startFind(direction: 'next' | 'prev', fromCurrent: boolean): void {
    const first = items[list.firstVisible()]?.sequence ?? 0;
    const from = fromCurrent && find.current !== undefined ? find.current : direction === 'next' ? Math.max(0, first - 1) : first + 1;
    const message = find.request(layout.search.value, toLogFilter(state.filter), from, direction);
    if (message) vscode.postMessage(message);
    else vscode.postMessage({ type: 'stopFind' });
    list.render(true);
    setText(layout.findStatus, find.status(state.strings, state.info.logCappedAfter));
    persistence.schedule();
  }

  function applyFilter(): void {
    const anchor = follow ? undefined : items[list.firstVisible()]?.sequence;
    generation++;
    pages.clear();
    expanded = undefined;
    setFilter(state, readFilter(layout));
    // The host answers for the whole log; meanwhile the window shows what the model keeps.
    if (anchor !== undefined && anchor > 0) requestPage('around', anchor, 'jump', anchor, false);
    else {
      follow = true;
      requestPage('before', state.model.lastSequence + 1, 'end');
    }
    drawer.schedule({ rows: true, header: true, reset: true });
    persistence.schedule();
    if (find.query !== '') startFind('next', false);
  }

  // ---- host messages ----

  window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
    const message = event.data;
    if (!message || typeof message !== 'object' || !HOST_MESSAGE_TYPES.has(message.type)) return;
    switch (message.type) {
      case 'page':
        onPage(message);
        return;
      case 'found': {
        const taken = find.take(message);
        if (taken?.show !== undefined) goTo(taken.show, true);
        else if (taken) list.render(true);
        setText(layout.findStatus, find.status(state.strings, state.info.logCappedAfter));
        return;
      }
      case 'reveal':
        goTo(message.sequence, false);
        return;
      case 'reset':
        expanded = undefined;
        generation++;
        pages.clear();
        if (message.connection.state === 'reconnecting') reconnectDeadline = Date.now() + message.connection.delayMs;
        break;
      case 'connection': {
        const c = message.connection;
        reconnectDeadline = c.state === 'reconnecting' ? Date.now() + c.delayMs : undefined;
        break;
      }
      case 'events': {
        const last = state.model.lastSequence;
        announcer.events(message.events.filter((e) => e?.data?.sequence > last));
        break;
      }
    }
    const change = reduce(state, message);
    // Tells the host this batch is taken, so it sends the next (and collapses a backlog otherwise).
    if ((message.type === 'events' || message.type === 'reset') && message.batch !== undefined) vscode.postMessage({ type: 'ack', batch: message.batch });
    if (message.type === 'reset') {
      follow = true;
      if (isFiltered(state.filter)) requestPage('before', state.model.lastSequence + 1, 'end');
      if (layout.search.value.trim() !== '') startFind('next', false);
    }
    drawer.schedule(change);
    if (change.rows || message.type === 'info') persistence.schedule();
    if (state.model.terminalEvent) persistence.schedule();
  });

  // ---- controls ----

  wireControls(layout, steering, {
    vscode,
    runId: () => state.runId,
    expanded: () => expanded,
    jumpToNewest,
    outlineShown: () => outline.list.render(true),
  });
  wireTimelineKeys(layout.timeline, {
    items: () => items,
    focusIndex,
    activate: (row) => {
      if (row.kind === 'omitted') {
        if (!pages.loading('before')) requestPage('before', firstSequence(state), 'scroll');
        return;
      }
      if (row.kind === 'later') {
        if (!pages.loading('after')) requestPage('after', lastSequence(state), 'scroll');
        return;
      }
      if (!row.raw) return;
      expanded = expanded === row ? undefined : row;
      drawer.schedule({ rows: true, reset: true });
    },
  });

  function focusIndex(index: number): void {
    const target = Math.max(0, Math.min(items.length - 1, index));
    const wasFollowing = follow;
    list.reveal(target)?.focus({ preventScroll: true });
    if (wasFollowing && target < items.length - 1) {
      totalWhenLeft = state.model.totalEvents;
      follow = false;
      updateJump();
    }
    loadAtEdges();
  }

  for (const select of [layout.kindFilter, layout.toolFilter, layout.stepFilter, layout.statusFilter]) select.addEventListener('change', applyFilter);

  wireFindControls(layout, {
    findText: () => find.text,
    startFind,
    clearFind: () => {
      find.clear();
      vscode.postMessage({ type: 'stopFind' });
      list.render(true);
      setText(layout.findStatus, '');
      persistence.schedule();
    },
    goTo: (sequence) => goTo(sequence, false),
    gotoInvalid: () => setText(layout.findStatus, state.strings.gotoInvalid),
  });

  // Live figures: elapsed times and the reconnect countdown.
  setInterval(() => {
    updateHeader(layout, state, Date.now(), secondsLeft());
    list.render(true);
  }, 1000);

  vscode.postMessage({ type: 'ready' });
}

start();
