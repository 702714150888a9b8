// The webview's open `page` requests to the host: what each was for, so its answer is put in the
// window the right way; answers to a request made under an older filter are dropped by the caller,
// and answers to requests a newer jump superseded are dropped here.
import type { LogFilter } from '../runEvents/logQuery';
import { PAGE_EVENTS } from './reducer';
import type { VsCodeApi } from './vscodeApi';

/** An unanswered page request (a host without the whole log) is forgotten after this long. */
const PAGE_TIMEOUT_MS = 15_000;

export type Purpose = 'scroll' | 'jump' | 'end';

export interface PendingPage {
  direction: 'before' | 'after' | 'around';
  purpose: Purpose;
  /** For a jump: the sequence to show, and whether to move the focus to it. */
  target?: number;
  focus?: boolean;
  /** The filter generation it was asked under (answers to an older filter are dropped). */
  generation: number;
}

/** A page around a sequence (a jump) or at the end replaces the whole window when it lands. */
function replacesWindow(p: PendingPage): boolean {
  return p.direction === 'around' || p.purpose === 'end';
}

export class PageRequests {
  private readonly pages = new Map<number, PendingPage>();
  private nextRequestId = 1;

  constructor(private readonly vscode: VsCodeApi) {}

  /** A page that way (or one replacing the window) is awaited. */
  loading(direction: PendingPage['direction']): boolean {
    for (const p of this.pages.values()) {
      if (p.direction === direction || replacesWindow(p)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A page that will replace the window (a jump, the end) is awaited: a jump to a row the window
   * holds must then ask for its own page too, or that earlier answer would land after it.
   */
  replacing(): boolean {
    for (const p of this.pages.values()) {
      if (replacesWindow(p)) {
        return true;
      }
    }
    return false;
  }

  request(pending: PendingPage, sequence: number, filter: LogFilter): void {
    // A page that replaces the window (a jump, the end) supersedes every earlier request: the host
    // answers them concurrently, and an older answer landing last would undo the newer jump.
    if (replacesWindow(pending)) {
      this.pages.clear();
    }
    const requestId = this.nextRequestId++;
    this.pages.set(requestId, pending);
    this.vscode.postMessage({
      type: 'page',
      requestId,
      sequence: Math.max(0, sequence),
      direction: pending.direction,
      limit: PAGE_EVENTS,
      filter,
    });
    // A host that keeps no log never answers: the request is forgotten, and may be asked again.
    setTimeout(() => this.pages.delete(requestId), PAGE_TIMEOUT_MS);
  }

  /** The request an answer is for (once: it is forgotten). */
  take(requestId: number): PendingPage | undefined {
    const request = this.pages.get(requestId);
    this.pages.delete(requestId);
    return request;
  }

  clear(): void {
    this.pages.clear();
  }
}
