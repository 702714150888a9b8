// Screen-reader announcements of what a run does: new steps and completions in a polite live
// region, failures and approval requests in an assertive one. A fast run would flood the reader,
// so each region speaks at most once per interval and what came meanwhile is said as a count
// ("3 new steps"). The clock and timer are injected so the rate limit is tested without waiting.
import { fill } from '../common/format';
import { visibleText } from '../common/visibleText';
import { matchesFilter } from '../runEvents/logQuery';
import type { WireEvent } from '../runEvents/wire';
import type { UiStrings } from '../runPanel/protocol';

export const ANNOUNCE_INTERVAL_MS = 2000;

type Topic = 'step' | 'completed' | 'ended' | 'problem' | 'approval' | 'spend';

interface Pending {
  count: number;
  /** The first item's name (said when it is the only one). */
  first: string;
}

export interface AnnouncerClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
}

/** One live region with its own rate limit. */
class Region {
  private last = Number.NEGATIVE_INFINITY;
  private timer: unknown;
  private readonly pending = new Map<Topic, Pending>();

  constructor(
    readonly element: HTMLElement,
    private readonly clock: AnnouncerClock,
    private readonly say: (topic: Topic, pending: Pending) => string,
  ) {}

  /** `latest`: what waits of this topic says the newest item, not the first. */
  add(topic: Topic, name: string, latest = false): void {
    const p = this.pending.get(topic);
    if (p) {
      p.count++;
      if (latest) {
        p.first = name;
      }
    } else {
      this.pending.set(topic, { count: 1, first: name });
    }
    if (this.timer !== undefined) {
      return;
    }
    const wait = this.last + ANNOUNCE_INTERVAL_MS - this.clock.now();
    if (wait <= 0) {
      this.flush();
    } else {
      this.timer = this.clock.setTimeout(() => this.flush(), wait);
    }
  }

  /** Speaks something now if the interval allows, else after it (replacing what waited of its kind). */
  private flush(): void {
    this.timer = undefined;
    if (this.pending.size === 0) {
      return;
    }
    const parts: string[] = [];
    for (const [topic, p] of this.pending) {
      parts.push(this.say(topic, p));
    }
    this.pending.clear();
    this.last = this.clock.now();
    // A changed text node is what screen readers announce.
    this.element.textContent = visibleText(parts.join('. '));
  }
}

export class Announcer {
  readonly polite: HTMLElement;
  readonly assertive: HTMLElement;
  private readonly politeRegion: Region;
  private readonly assertiveRegion: Region;

  constructor(
    root: HTMLElement,
    private strings: () => UiStrings,
    clock: AnnouncerClock = { now: () => performance.now(), setTimeout: (fn, ms) => setTimeout(fn, ms) },
  ) {
    this.polite = region('announcer-polite', 'polite', 'status');
    this.assertive = region('announcer-assertive', 'assertive', 'alert');
    root.append(this.polite, this.assertive);
    const say = (topic: Topic, p: Pending) => this.text(topic, p);
    this.politeRegion = new Region(this.polite, clock, say);
    this.assertiveRegion = new Region(this.assertive, clock, say);
  }

  /** Notes the events the stream brought (live ones only: paging through history says nothing). */
  events(events: readonly WireEvent[]): void {
    for (const event of events) {
      const d = event.data;
      if (event.event === 'step.started') {
        this.politeRegion.add('step', text(d.title) || text(d.step_id));
      } else if (event.event === 'step.completed' && !matchesFilter(event, { status: 'problems' })) {
        this.politeRegion.add('completed', text(d.title) || text(d.step_id));
      } else if (event.event === 'approval.requested') {
        this.assertiveRegion.add('approval', text(d.tool));
      } else if (matchesFilter(event, { status: 'problems' })) {
        this.assertiveRegion.add('problem', event.event);
      } else if (event.event === 'run.completed') {
        this.politeRegion.add('ended', text(d.status) || 'completed');
      }
    }
  }

  /**
   * The spend meter crossed a threshold (src/webview/spendMeterUi.ts calls this once per
   * crossing): politely at 50 and 80 per cent, assertively at the cap. Only the newest is said.
   */
  spend(level: number, meterText: string): void {
    const region = level >= 100 ? this.assertiveRegion : this.politeRegion;
    region.add('spend', fill(this.strings().announceSpend, level, meterText), true);
  }

  private text(topic: Topic, p: Pending): string {
    const s = this.strings();
    switch (topic) {
      case 'step':
        return p.count === 1 ? fill(s.announceStep, p.first) : fill(s.announceSteps, p.count);
      case 'completed':
        return p.count === 1 ? fill(s.announceCompleted, p.first) : fill(s.announceCompletedMany, p.count);
      case 'ended':
        return fill(s.runEnded, p.first);
      case 'problem':
        return p.count === 1 ? fill(s.announceProblem, p.first) : fill(s.announceProblems, p.count);
      case 'approval':
        return p.count === 1 ? fill(s.announceApproval, p.first) : fill(s.announceApprovals, p.count);
      case 'spend':
        return p.first;
    }
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 200) : '';
}

function region(id: string, live: 'polite' | 'assertive', role: string): HTMLElement {
  const element = document.createElement('div');
  element.id = id;
  element.className = 'visually-hidden';
  element.setAttribute('aria-live', live);
  element.setAttribute('role', role);
  element.setAttribute('aria-atomic', 'true');
  return element;
}
