// A virtualised list of fixed-height rows (plus a few detail blocks, each under a row: the
// expanded raw JSON, the approval card): only the rows in view, and a few either side, exist in
// the DOM, whatever the item count.

export interface VirtualListOptions<T> {
  /** The scrolling element; the list fills it. */
  container: HTMLElement;
  rowHeight: number;
  overscan?: number;
  createRow(): HTMLElement;
  /** Fills a pooled row element for an item (called when the item shown in it changes, or forced). */
  renderRow(element: HTMLElement, item: T, index: number): void;
  /** `ours`: the list moved itself (to the bottom, a jump, a page added above), not the user. */
  onScroll?(ours: boolean): void;
  /** The view changed size (redraw it, and keep it at the bottom if it was following). */
  onResize?(): void;
  /**
   * Items whose row shows more than the item itself (a step's row shows the step's state), filled
   * at every render even on the element that already shows them; a fill writes only what changed.
   */
  refill?(item: T): boolean;
  /** The item's place in the whole log for assistive technology (setsize -1: unknown); default: its index. */
  position?(item: T, index: number): { posinset: number; setsize: number };
}

interface Detail {
  index: number;
  element: HTMLElement;
  height: number;
}

export class VirtualList<T> {
  private items: readonly T[] = [];
  private readonly canvas: HTMLElement;
  private readonly pool: HTMLElement[] = [];
  private readonly shown = new WeakMap<HTMLElement, T>();
  /** Blocks under rows, by slot, ordered by index when laid out. */
  private readonly details = new Map<string, Detail>();
  private ordered: Detail[] = [];
  private readonly rowHeight: number;
  private readonly overscan: number;
  // Layout figures are cached (scroll events, a ResizeObserver) so that drawing never forces a
  // synchronous layout: on a busy page that was the largest cost of a frame.
  private viewHeight = 0;
  private scrollTop = 0;
  /** The scrollTop the list last set itself: the scroll event it causes is not the user's. */
  private setTop = Number.NaN;

  constructor(private readonly options: VirtualListOptions<T>) {
    this.rowHeight = options.rowHeight;
    this.overscan = options.overscan ?? 10;
    this.canvas = document.createElement('div');
    this.canvas.className = 'virtual-canvas';
    options.container.append(this.canvas);
    options.container.addEventListener(
      'scroll',
      () => {
        this.scrollTop = options.container.scrollTop;
        const ours = Math.abs(this.scrollTop - this.setTop) < 1;
        this.setTop = Number.NaN;
        options.onScroll?.(ours);
        this.render(false);
      },
      { passive: true },
    );
    new ResizeObserver((entries) => {
      const height = entries[entries.length - 1]?.contentRect.height;
      if (height === undefined || height === this.viewHeight) {
        return;
      }
      this.viewHeight = height;
      if (options.onResize) {
        options.onResize();
      } else {
        this.render(false);
      }
    }).observe(options.container);
  }

  get length(): number {
    return this.items.length;
  }

  setItems(items: readonly T[]): void {
    this.items = items;
  }

  /** Shows `element` (of `height` px) under the row at `index` in its slot; -1 or no element removes it. */
  setDetail(index: number, element: HTMLElement | undefined, height: number, slot = 'raw'): void {
    const old = this.details.get(slot);
    if (old && old.element !== element) {
      old.element.remove();
    }
    if (!element || index < 0 || index >= this.items.length) {
      this.details.delete(slot);
      if (element?.parentElement === this.canvas) {
        element.remove();
      }
    } else {
      this.details.set(slot, { index, element, height });
      if (element.parentElement !== this.canvas) {
        this.canvas.append(element);
      }
    }
    this.ordered = [...this.details.values()].sort((a, b) => a.index - b.index);
  }

  /** Moves the view by `rows` rows (rows were added or removed above it: it keeps showing the same ones). */
  shiftBy(rows: number): void {
    if (rows === 0) {
      return;
    }
    this.scrollTop = Math.max(0, this.scrollTop + rows * this.rowHeight);
    this.setScrollTop(this.scrollTop);
  }

  /** Puts the row at `index` in the middle of the view, draws, and returns its element. */
  center(index: number): HTMLElement | undefined {
    if (index < 0 || index >= this.items.length) {
      return undefined;
    }
    this.scrollTop = Math.max(0, this.top(index) - Math.floor(this.height() / 2));
    this.setScrollTop(this.scrollTop);
    this.render(false);
    return this.elementAt(index);
  }

  elementAt(index: number): HTMLElement | undefined {
    return this.pool.find((element) => element.dataset.index === String(index));
  }

  /** Within `rows` rows of the top of the list. */
  nearTop(rows: number): boolean {
    return this.scrollTop <= rows * this.rowHeight;
  }

  nearBottom(rows: number): boolean {
    return this.scrollTop + this.height() >= this.total() - rows * this.rowHeight;
  }

  /** The index of the first row in view. */
  firstVisible(): number {
    return Math.min(this.items.length - 1, this.indexAt(this.scrollTop));
  }

  /** Scrolls just enough for the row at `index` to be in view, draws, and returns its element. */
  reveal(index: number): HTMLElement | undefined {
    if (index < 0 || index >= this.items.length) {
      return undefined;
    }
    const top = this.top(index);
    const height = this.height();
    let scrollTop = this.scrollTop;
    if (top < scrollTop) {
      scrollTop = top;
    } else if (top + this.rowHeight > scrollTop + height) {
      scrollTop = top + this.rowHeight - height;
    }
    if (scrollTop !== this.scrollTop) {
      this.scrollTop = scrollTop;
      this.setScrollTop(scrollTop);
    }
    this.render(false);
    return this.elementAt(index);
  }

  isAtBottom(): boolean {
    return this.scrollTop + this.height() >= this.total() - this.rowHeight / 2;
  }

  /**
   * Lays out the rows in view; `force` refills them even when their item did not change, and
   * `toBottom` scrolls to the end. Layout is read once, before any write, so a frame costs one
   * layout pass, not several.
   */
  render(force: boolean, toBottom = false): void {
    const viewHeight = this.height();
    const total = this.total();
    const viewTop = toBottom
      ? Math.max(0, total - viewHeight)
      : Math.min(this.scrollTop, Math.max(0, total - viewHeight));
    const height = `${total}px`;
    if (this.canvas.style.height !== height) {
      this.canvas.style.height = height;
    }
    const start = Math.max(0, this.indexAt(viewTop) - this.overscan);
    const end = Math.min(this.items.length, this.indexAt(viewTop + viewHeight) + 1 + this.overscan);
    const count = Math.max(0, end - start);
    this.keepRowsInPlace(start, count);
    while (this.pool.length < count) {
      const row = this.options.createRow();
      const last = this.pool[this.pool.length - 1];
      if (last) {
        last.after(row);
      } else {
        this.canvas.prepend(row);
      }
      this.pool.push(row);
    }
    // Rows beyond what the view needs leave the DOM (a hidden row would still carry its old event).
    while (this.pool.length > count) {
      this.pool.pop()?.remove();
    }
    const position = this.options.position;
    for (let slot = 0; slot < count; slot++) {
      const element = this.pool[slot];
      const index = start + slot;
      const item = this.items[index];
      if (force || this.shown.get(element) !== item || this.options.refill?.(item) === true) {
        this.shown.set(element, item);
        this.options.renderRow(element, item, index);
      }
      const transform = `translateY(${this.top(index)}px)`;
      if (element.style.transform !== transform) {
        element.style.transform = transform;
      }
      // The position in the whole list, for assistive technology (and tests that scroll through it).
      const place = position ? position(item, index) : { posinset: index + 1, setsize: this.items.length };
      const posinset = String(place.posinset);
      if (element.getAttribute('aria-posinset') !== posinset) {
        element.setAttribute('aria-posinset', posinset);
      }
      if (element.dataset.index !== String(index)) {
        element.dataset.index = String(index);
      }
      const setSize = String(place.setsize);
      if (element.getAttribute('aria-setsize') !== setSize) {
        element.setAttribute('aria-setsize', setSize);
      }
    }
    for (const detail of this.ordered) {
      const transform = `translateY(${this.top(detail.index) + this.rowHeight}px)`;
      if (detail.element.style.transform !== transform) {
        detail.element.style.transform = transform;
      }
      const detailHeight = `${detail.height}px`;
      if (detail.element.style.height !== detailHeight) {
        detail.element.style.height = detailHeight;
      }
    }
    if (toBottom && Math.abs(this.scrollTop - viewTop) >= 1) {
      this.scrollTop = viewTop;
      this.setScrollTop(viewTop);
    }
  }

  /**
   * When the window moved by fewer rows than it shows (a row streamed in at the bottom, a few
   * rows scrolled), the row elements that still show an item in view keep it: the elements that
   * left at one end move to the other, so only they are filled again. Otherwise every slot would
   * show a new item, and each draw would refill, lay out and paint every row in view (the largest
   * cost of a live panel's frame). The pool stays in DOM order, which is index order.
   */
  private keepRowsInPlace(start: number, count: number): void {
    const pool = this.pool;
    const first = this.items[start];
    if (pool.length < 2 || count === 0 || this.shown.get(pool[0]) === first) {
      return;
    }
    // Scrolled down: the new first item is shown further down the pool.
    const down = pool.findIndex((element) => this.shown.get(element) === first);
    if (down > 0) {
      const moved = pool.splice(0, down);
      // After the last row, not at the canvas's end: the detail blocks stay after the rows.
      const last = pool[pool.length - 1];
      this.keepingFocus(moved, () => last.after(...moved));
      pool.push(...moved);
      return;
    }
    // Scrolled up: the old first item is now `up` rows down the window. The rows that left at
    // the bottom (beyond the new window's end) move to the front; new ones make up the rest.
    const oldFirst = this.shown.get(pool[0]);
    const limit = Math.min(count, pool.length);
    for (let up = 1; up < limit; up++) {
      if (this.items[start + up] === oldFirst) {
        const leftAtBottom = Math.max(0, pool.length - (count - up));
        const front = pool.splice(pool.length - Math.min(up, leftAtBottom));
        while (front.length < up) {
          front.push(this.options.createRow());
        }
        this.keepingFocus(front, () => {
          for (const element of front) {
            this.canvas.insertBefore(element, pool[0]);
          }
        });
        pool.unshift(...front);
        return;
      }
    }
  }

  /**
   * Moves rows without losing the keyboard: a row taken out of the DOM loses the focus (to the
   * page's body, where the arrow keys do nothing), so the moved row that had it takes it back,
   * as the row the slot shows now (following the end, that is the newest row).
   */
  private keepingFocus(moved: readonly HTMLElement[], move: () => void): void {
    const active = document.activeElement;
    const focused = moved.find((element) => element === active || element.contains(active));
    move();
    focused?.focus({ preventScroll: true });
  }

  private setScrollTop(top: number): void {
    this.options.container.scrollTop = top;
    // Not read back (that would force a layout): the tops the list sets are within range.
    this.setTop = top;
  }

  private total(): number {
    let extra = 0;
    for (const detail of this.ordered) {
      extra += detail.height;
    }
    return this.items.length * this.rowHeight + extra;
  }

  private height(): number {
    // Read once before the ResizeObserver's first report; cached afterwards.
    if (this.viewHeight === 0) {
      this.viewHeight = this.options.container.clientHeight;
    }
    return this.viewHeight || this.rowHeight * 40;
  }

  private top(index: number): number {
    let extra = 0;
    for (const detail of this.ordered) {
      if (index > detail.index) {
        extra += detail.height;
      }
    }
    return index * this.rowHeight + extra;
  }

  private indexAt(y: number): number {
    let extra = 0;
    for (const detail of this.ordered) {
      const detailTop = (detail.index + 1) * this.rowHeight + extra;
      if (y < detailTop) {
        break;
      }
      if (y < detailTop + detail.height) {
        return detail.index;
      }
      extra += detail.height;
    }
    return Math.max(0, Math.floor((y - extra) / this.rowHeight));
  }
}
