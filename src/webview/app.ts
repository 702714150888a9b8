// The run panel's browser app, composed: host messages into the view model, a bounded window onto
// the run's log paged in from the host, the follow mode and jumps. It makes no network request and
// never sees the API key. Drawing, paging, persistence and the controls are in their own files;
// the controls take this app through the narrow interfaces they declare.
import { SpendCrossings } from '../runEvents/spendMeter';
import type { HostMessage, PersistedState } from '../runPanel/protocol';
import { Announcer } from './announcer';
import { wireControls } from './controls';
import { DetailPlacement } from './detailPlacement';
import { setText } from './dom';
import { DrawScheduler, type FrameClock } from './drawScheduler';
import { FindState } from './findBar';
import { wireFindControls } from './findControls';
import { Flash } from './flash';
import { clockMatters } from './format';
import { applyStrings, createLayout, type Layout, readFilter } from './layout';
import { createOutline, type Outline } from './outline';
import { PageRequests, type PendingPage, type Purpose } from './pageRequests';
import { Persistence } from './persistence';
import {
  applyPage,
  type Change,
  firstSequence,
  fromLogFilter,
  initialState,
  isFiltered,
  lastSequence,
  rebuildAtEnd,
  reduce,
  type Row,
  setFilter,
  type TimelineState,
  toLogFilter,
} from './reducer';
import {
  focusedRowSequence,
  updateArtifacts,
  updateEmpty,
  updateHeader,
  updateJumpButton,
  updateSummary,
} from './render';
import { createRowElement, fillRow, ROW_HEIGHT } from './renderRows';
import { createSpendMeter, type SpendMeterUi, updateSpendMeter } from './spendMeterUi';
import { createSteeringUi, type SteeringUi, updateSteering } from './steeringUi';
import { wireTimelineKeys } from './timelineKeys';
import { VirtualList } from './virtualList';
import type { VsCodeApi } from './vscodeApi';
import { rowPosition, windowItems } from './windowItems';

const HOST_MESSAGE_TYPES = new Set<unknown>([
  'reset',
  'events',
  'info',
  'connection',
  'artifacts',
  'page',
  'found',
  'reveal',
] satisfies HostMessage['type'][]);
/** Animation frames and the clock of this page, for drawing. */
const PAGE_FRAMES: FrameClock = {
  requestFrame: (fn) => requestAnimationFrame(() => fn()),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  now: () => performance.now(),
};
/** A page is asked for when the view comes this many rows from the window's edge. */
const EDGE_ROWS = 40;

export class RunPanelApp {
  readonly vscode: VsCodeApi;
  readonly layout: Layout;
  readonly steering: SteeringUi;
  readonly find: FindState;
  /** What the list shows: the window's rows between the "earlier" and "later" rows. */
  items: Row[] = [];
  /** The row whose detail is open. */
  expanded: Row | undefined;

  private readonly state: TimelineState;
  private readonly announcer: Announcer;
  private readonly pages: PageRequests;
  private readonly drawer: DrawScheduler;
  private readonly persistence: Persistence;
  private readonly list: VirtualList<Row>;
  private readonly details: DetailPlacement;
  private readonly flash: Flash;
  private readonly outline: Outline;
  private readonly spendMeter: SpendMeterUi;
  /** The meter's thresholds said so far (once per crossing). */
  private readonly spendCrossings = new SpendCrossings();
  /** The view stays at the newest event as events arrive. */
  private follow = true;
  /** model.totalEvents when the user stopped following (for "N new"). */
  private totalWhenLeft = 0;
  private reconnectDeadline: number | undefined;
  /** Bumped when the window starts over: answers to requests of an older generation are dropped. */
  private generation = 0;

  constructor(vscode: VsCodeApi, root: HTMLElement) {
    this.vscode = vscode;
    const saved = vscode.getState() as Partial<PersistedState> | undefined;
    const state = initialState(typeof saved?.runId === 'string' ? saved.runId : '');
    state.filter = fromLogFilter(saved?.filter);
    this.state = state;
    this.layout = createLayout(root, state.strings);
    this.steering = createSteeringUi(this.layout, state.strings);
    this.announcer = new Announcer(root, () => this.state.strings);
    this.spendMeter = createSpendMeter();
    this.steering.cost.after(this.spendMeter.root);
    this.find = new FindState();
    if (typeof saved?.query === 'string') {
      this.layout.search.value = saved.query;
    }
    this.pages = new PageRequests(vscode);
    this.drawer = new DrawScheduler((change) => this.draw(change), PAGE_FRAMES);
    this.persistence = new Persistence(vscode, state, () => this.layout.search.value);
    this.list = new VirtualList<Row>({
      container: this.layout.timeline,
      rowHeight: ROW_HEIGHT,
      createRow: createRowElement,
      renderRow: (element, row) =>
        fillRow(element, row, this.state, Date.now(), {
          expanded: row === this.expanded,
          query: this.find.query,
          currentMatch: this.find.current,
          flash: this.flash.sequence,
        }),
      onScroll: (ours) => this.onScroll(ours),
      onResize: () => this.list.render(false, this.follow),
      // A step's row shows the step's state (running, done, its duration), which later events change.
      refill: (row) => row.kind === 'step',
      position: (row, index) => rowPosition(this.state, this.items, row, index),
    });
    this.details = new DetailPlacement(this.layout, this.steering, this.list);
    this.flash = new Flash(() => this.list.render(true));
    this.outline = createOutline(
      this.layout.outlineList,
      () => this.state.strings,
      (step) => this.goTo(step.startSequence, false),
    );
  }

  /** Listens to the host and the controls, and tells the host the panel is ready. */
  start(): void {
    window.addEventListener('message', (event: MessageEvent<HostMessage>) => this.onHostMessage(event.data));
    wireControls(this);
    wireTimelineKeys(this);
    const layout = this.layout;
    for (const select of [layout.kindFilter, layout.toolFilter, layout.stepFilter, layout.statusFilter]) {
      select.addEventListener('change', () => this.applyFilter());
    }
    wireFindControls(this);
    // Live figures: elapsed times and the reconnect countdown.
    setInterval(() => this.tick(), 1000);
    this.vscode.postMessage({ type: 'ready' });
  }

  /** The run shown. */
  get runId(): string {
    return this.state.runId;
  }

  // ---- drawing ----

  private draw(change: Change): void {
    const { layout, state } = this;
    const now = Date.now();
    if (change.reset) {
      applyStrings(layout, state.strings);
    }
    if (change.header || change.rows) {
      updateHeader(layout, state, now, this.secondsLeft());
      updateSummary(layout, state);
      const terminal = state.model.terminalEvent;
      updateSteering(
        this.steering,
        state.info,
        state.strings,
        terminal !== undefined,
        terminal?.status ?? state.info.status,
      );
      updateSpendMeter(this.spendMeter, state.spend, state.strings, this.spendCrossings, (level, text) =>
        this.announcer.spend(level, text),
      );
      this.outline.update(state, change.reset);
    }
    if (change.artifacts) {
      updateArtifacts(layout, state);
    }
    if (change.rows || change.header) {
      this.drawRows(change.reset);
    }
    this.updateJump();
    setText(layout.findStatus, this.find.status(state.strings, state.info.logCappedAfter));
  }

  /** Lays out the list now (a page answer must keep the view in place in the same frame). */
  private drawRows(force: boolean, shift = 0): void {
    this.items = windowItems(this.state);
    this.list.setItems(this.items);
    this.details.place(this.items, this.expanded, this.state.info.approval ?? undefined, this.state.strings);
    updateEmpty(this.layout, this.state);
    this.list.shiftBy(shift);
    this.list.render(force, this.follow);
    this.loadAtEdges();
  }

  private updateJump(): void {
    updateJumpButton(this.layout, this.state, !this.follow || this.state.window.hasAfter, this.totalWhenLeft);
  }

  private secondsLeft(): number | undefined {
    return this.reconnectDeadline === undefined
      ? undefined
      : Math.max(0, Math.ceil((this.reconnectDeadline - Date.now()) / 1000));
  }

  private tick(): void {
    const secondsLeft = this.secondsLeft();
    if (!clockMatters(this.state, secondsLeft !== undefined)) {
      return;
    }
    updateHeader(this.layout, this.state, Date.now(), secondsLeft);
    this.list.render(true);
  }

  /** The outline was shown: its list lays out again. */
  outlineShown(): void {
    this.outline.list.render(true);
  }

  // ---- the follow mode and the focus ----

  private onScroll(ours: boolean): void {
    const atBottom = this.list.isAtBottom() && !this.state.window.hasAfter;
    // The list moving itself (rows trimmed above while streaming) never stops the follow mode.
    if (ours && this.follow) {
      this.loadAtEdges();
      return;
    }
    if (this.follow && !atBottom) {
      this.totalWhenLeft = this.state.model.totalEvents;
    }
    this.follow = atBottom;
    this.updateJump();
    this.loadAtEdges();
  }

  focusIndex(index: number): void {
    const target = Math.max(0, Math.min(this.items.length - 1, index));
    const wasFollowing = this.follow;
    this.list.reveal(target)?.focus({ preventScroll: true });
    if (wasFollowing && target < this.items.length - 1) {
      this.totalWhenLeft = this.state.model.totalEvents;
      this.follow = false;
      this.updateJump();
    }
    this.loadAtEdges();
  }

  /** A click, Enter or Space on a row: pages in from the "earlier" / "later" rows, or opens or closes its detail. */
  activate(row: Row): void {
    if (row.kind === 'omitted') {
      if (!this.pages.loading('before')) {
        this.requestPage('before', firstSequence(this.state), 'scroll');
      }
      return;
    }
    if (row.kind === 'later') {
      if (!this.pages.loading('after')) {
        this.requestPage('after', lastSequence(this.state), 'scroll');
      }
      return;
    }
    if (!row.raw) {
      return;
    }
    this.expanded = this.expanded === row ? undefined : row;
    this.drawer.schedule({ rows: true, reset: true });
  }

  // ---- the window: pages from the host ----

  private requestPage(
    direction: PendingPage['direction'],
    sequence: number,
    purpose: Purpose,
    target?: number,
    focus?: boolean,
  ): void {
    this.pages.request(
      { direction, purpose, target, focus, generation: this.generation },
      sequence,
      toLogFilter(this.state.filter),
    );
  }

  /** Near an edge of the window with more beyond it: ask for the next page that way. */
  private loadAtEdges(): void {
    const { state, list, pages } = this;
    if (state.rows.length === 0 && !state.window.hasBefore) {
      return;
    }
    const w = state.window;
    if (w.hasBefore && list.nearTop(EDGE_ROWS) && !this.follow && !pages.loading('before')) {
      this.requestPage('before', firstSequence(state), 'scroll');
    } else if (
      w.hasBefore &&
      this.follow &&
      this.items.length * ROW_HEIGHT < this.layout.timeline.clientHeight &&
      !pages.loading('before')
    ) {
      // A filtered window that does not fill the view: fill it from the host.
      this.requestPage('before', firstSequence(state), 'scroll');
    }
    if (w.hasAfter && list.nearBottom(EDGE_ROWS) && !pages.loading('after')) {
      this.requestPage('after', lastSequence(state), 'scroll');
    }
  }

  private onPage(message: Extract<HostMessage, { type: 'page' }>): void {
    const request = this.pages.take(message.requestId);
    if (!request) {
      return;
    }
    if (request.generation !== this.generation) {
      return;
    }
    const focused = focusedRowSequence();
    const direction = request.purpose === 'end' ? 'around' : request.direction;
    const page = request.purpose === 'end' ? { ...message, after: false } : message;
    const { addedTop, removedTop } = applyPage(this.state, direction, page);
    if (direction === 'around') {
      this.expanded = undefined;
    }
    if (request.purpose === 'jump') {
      this.follow = false;
    }
    if (request.purpose === 'end') {
      this.follow = true;
    }
    this.drawRows(true, request.purpose === 'scroll' ? addedTop - removedTop : 0);
    if (request.target !== undefined) {
      this.show(request.target, request.focus === true);
    } else if (focused !== undefined) {
      this.refocus(focused);
    }
    this.updateJump();
    this.drawer.schedule({ header: true });
  }

  private refocus(sequence: number): void {
    const index = this.items.findIndex((r) => r.sequence === sequence);
    if (index >= 0) {
      this.list.elementAt(index)?.focus({ preventScroll: true });
    }
  }

  /** Scrolls the row of `sequence` (or the nearest after it) into the middle, highlighted briefly. */
  private show(sequence: number, focus: boolean): boolean {
    const items = this.items;
    let index = items.findIndex((r) => r.sequence === sequence);
    if (index < 0) {
      index = items.findIndex((r) => r.sequence > sequence);
    }
    if (index < 0) {
      return false;
    }
    this.follow = false;
    this.flash.set(items[index].sequence);
    this.list.render(true);
    const element = this.list.center(index);
    this.list.render(true);
    if (focus) {
      element?.focus({ preventScroll: true });
    }
    this.updateJump();
    return true;
  }

  /** "Go to sequence N", a reveal from elsewhere, an outline or find jump. */
  goTo(sequence: number, keepFocus = false): void {
    if (!Number.isSafeInteger(sequence) || sequence < 0) {
      return;
    }
    if (this.items.some((r) => r.sequence === sequence) && !this.pages.replacing()) {
      this.show(sequence, !keepFocus);
      return;
    }
    this.requestPage('around', sequence, 'jump', sequence, !keepFocus);
  }

  jumpToNewest(): void {
    this.follow = true;
    this.generation++; // no answer to an earlier request may pull the view away from the end again
    this.pages.clear();
    if (this.state.window.hasAfter) {
      rebuildAtEnd(this.state);
      this.expanded = undefined;
    }
    this.drawRows(true);
    this.list.render(false, true);
    this.updateJump();
  }

  // ---- find and filters ----

  startFind(direction: 'next' | 'prev', fromCurrent: boolean): void {
    const { find, layout, state } = this;
    const first = this.items[this.list.firstVisible()]?.sequence ?? 0;
    const from =
      fromCurrent && find.current !== undefined
        ? find.current
        : direction === 'next'
          ? Math.max(0, first - 1)
          : first + 1;
    const message = find.request(layout.search.value, toLogFilter(state.filter), from, direction);
    if (message) {
      this.vscode.postMessage(message);
    } else {
      this.vscode.postMessage({ type: 'stopFind' });
    }
    this.list.render(true);
    setText(layout.findStatus, find.status(state.strings, state.info.logCappedAfter));
    this.persistence.schedule();
  }

  clearFind(): void {
    this.find.clear();
    this.vscode.postMessage({ type: 'stopFind' });
    this.list.render(true);
    setText(this.layout.findStatus, '');
    this.persistence.schedule();
  }

  /** The go-to box holds no event number: the find bar's status says so. */
  gotoInvalid(): void {
    setText(this.layout.findStatus, this.state.strings.gotoInvalid);
  }

  private applyFilter(): void {
    const state = this.state;
    const anchor = this.follow ? undefined : this.items[this.list.firstVisible()]?.sequence;
    this.generation++;
    this.pages.clear();
    this.expanded = undefined;
    setFilter(state, readFilter(this.layout));
    // The host answers for the whole log; meanwhile the window shows what the model keeps.
    if (anchor !== undefined && anchor > 0) {
      this.requestPage('around', anchor, 'jump', anchor, false);
    } else {
      this.follow = true;
      this.requestPage('before', state.model.lastSequence + 1, 'end');
    }
    this.drawer.schedule({ rows: true, header: true, reset: true });
    this.persistence.schedule();
    if (this.find.query !== '') {
      this.startFind('next', false);
    }
  }

  // ---- host messages ----

  /** A message from the host (checked here: anything else is ignored). */
  onHostMessage(message: HostMessage): void {
    if (!message || typeof message !== 'object' || !HOST_MESSAGE_TYPES.has(message.type)) {
      return;
    }
    const state = this.state;
    switch (message.type) {
      case 'page':
        this.onPage(message);
        return;
      case 'found': {
        const taken = this.find.take(message);
        if (taken?.show !== undefined) {
          this.goTo(taken.show, true);
        } else if (taken) {
          this.list.render(true);
        }
        setText(this.layout.findStatus, this.find.status(state.strings, state.info.logCappedAfter));
        return;
      }
      case 'reveal':
        this.goTo(message.sequence, false);
        return;
      case 'reset':
        // A panel (re)opened on a run past some thresholds says none of them: its next draw only sets where it stands.
        this.spendCrossings.reset();
        this.expanded = undefined;
        this.generation++;
        this.pages.clear();
        if (message.connection.state === 'reconnecting') {
          this.reconnectDeadline = Date.now() + message.connection.delayMs;
        }
        break;
      case 'connection': {
        const c = message.connection;
        this.reconnectDeadline = c.state === 'reconnecting' ? Date.now() + c.delayMs : undefined;
        break;
      }
      case 'events': {
        const last = state.model.lastSequence;
        this.announcer.events(message.events.filter((e) => e?.data?.sequence > last));
        break;
      }
      case 'info':
      case 'artifacts':
        break;
    }
    const change = reduce(state, message);
    // Tells the host this batch is taken, so it sends the next (and collapses a backlog otherwise).
    if ((message.type === 'events' || message.type === 'reset') && message.batch !== undefined) {
      this.vscode.postMessage({ type: 'ack', batch: message.batch });
    }
    if (message.type === 'reset') {
      this.follow = true;
      if (isFiltered(state.filter)) {
        this.requestPage('before', state.model.lastSequence + 1, 'end');
      }
      if (this.layout.search.value.trim() !== '') {
        this.startFind('next', false);
      }
    }
    this.drawer.schedule(change);
    if (change.rows || message.type === 'info') {
      this.persistence.schedule();
    }
    if (state.model.terminalEvent) {
      this.persistence.schedule();
    }
  }
}
