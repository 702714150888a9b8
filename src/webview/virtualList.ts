// A virtualised list of fixed-height rows (plus at most one expanded detail block under a row):
// only the rows in view, and a few either side, exist in the DOM, whatever the item count.

export interface VirtualListOptions<T> {
  /** The scrolling element; the list fills it. */
  container: HTMLElement;
  rowHeight: number;
  overscan?: number;
  createRow(): HTMLElement;
  /** Fills a pooled row element for an item (called when the item shown in it changes, or forced). */
  renderRow(element: HTMLElement, item: T, index: number): void;
  onScroll?(): void;
  /** The view changed size (redraw it, and keep it at the bottom if it was following). */
  onResize?(): void;
}

export class VirtualList<T> {
  private items: readonly T[] = [];
  private readonly canvas: HTMLElement;
  private readonly pool: HTMLElement[] = [];
  private readonly shown = new WeakMap<HTMLElement, T>();
  private expandedIndex = -1;
  private expandedHeight = 0;
  private detail: HTMLElement | undefined;
  private readonly rowHeight: number;
  private readonly overscan: number;
  // Layout figures are cached (scroll events, a ResizeObserver) so that drawing never forces a
  // synchronous layout: on a busy page that was the largest cost of a frame.
  private viewHeight = 0;
  private scrollTop = 0;

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
        options.onScroll?.();
        this.render(false);
      },
      { passive: true },
    );
    new ResizeObserver((entries) => {
      const height = entries[entries.length - 1]?.contentRect.height;
      if (height === undefined || height === this.viewHeight) return;
      this.viewHeight = height;
      if (options.onResize) options.onResize();
      else this.render(false);
    }).observe(options.container);
  }

  get length(): number {
    return this.items.length;
  }

  setItems(items: readonly T[]): void {
    this.items = items;
  }

  /** Shows `element` (of `height` px) under the row at `index`; -1 removes it. */
  setDetail(index: number, element: HTMLElement | undefined, height: number): void {
    this.expandedIndex = element ? index : -1;
    this.expandedHeight = element && index >= 0 ? height : 0;
    if (this.detail && this.detail !== element) this.detail.remove();
    this.detail = element && index >= 0 ? element : undefined;
    if (this.detail && this.detail.parentElement !== this.canvas) this.canvas.append(this.detail);
  }

  /** Scrolls just enough for the row at `index` to be in view, draws, and returns its element. */
  reveal(index: number): HTMLElement | undefined {
    if (index < 0 || index >= this.items.length) return undefined;
    const top = this.top(index);
    const height = this.height();
    let scrollTop = this.scrollTop;
    if (top < scrollTop) scrollTop = top;
    else if (top + this.rowHeight > scrollTop + height) scrollTop = top + this.rowHeight - height;
    if (scrollTop !== this.scrollTop) {
      this.scrollTop = scrollTop;
      this.options.container.scrollTop = scrollTop;
    }
    this.render(false);
    return this.pool.find((element) => element.dataset.index === String(index));
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
    const viewTop = toBottom ? Math.max(0, total - viewHeight) : Math.min(this.scrollTop, Math.max(0, total - viewHeight));
    const height = `${total}px`;
    if (this.canvas.style.height !== height) this.canvas.style.height = height;
    const start = Math.max(0, this.indexAt(viewTop) - this.overscan);
    const end = Math.min(this.items.length, this.indexAt(viewTop + viewHeight) + 1 + this.overscan);
    const count = Math.max(0, end - start);
    while (this.pool.length < count) {
      const row = this.options.createRow();
      this.pool.push(row);
      this.canvas.append(row);
    }
    // Rows beyond what the view needs leave the DOM (a hidden row would still carry its old event).
    while (this.pool.length > count) this.pool.pop()?.remove();
    const setSize = String(this.items.length);
    for (let slot = 0; slot < count; slot++) {
      const element = this.pool[slot];
      const index = start + slot;
      const item = this.items[index];
      if (force || this.shown.get(element) !== item) {
        this.shown.set(element, item);
        this.options.renderRow(element, item, index);
      }
      const transform = `translateY(${this.top(index)}px)`;
      if (element.style.transform !== transform) element.style.transform = transform;
      // The position in the whole list, for assistive technology (and tests that scroll through it).
      const position = String(index + 1);
      if (element.getAttribute('aria-posinset') !== position) {
        element.setAttribute('aria-posinset', position);
        element.dataset.index = String(index);
      }
      if (element.getAttribute('aria-setsize') !== setSize) element.setAttribute('aria-setsize', setSize);
    }
    if (this.detail) {
      const transform = `translateY(${this.top(this.expandedIndex) + this.rowHeight}px)`;
      if (this.detail.style.transform !== transform) this.detail.style.transform = transform;
      const detailHeight = `${this.expandedHeight}px`;
      if (this.detail.style.height !== detailHeight) this.detail.style.height = detailHeight;
    }
    if (toBottom && Math.abs(this.scrollTop - viewTop) >= 1) {
      this.scrollTop = viewTop;
      this.options.container.scrollTop = viewTop;
    }
  }

  private total(): number {
    return this.items.length * this.rowHeight + this.expandedHeight;
  }

  private height(): number {
    // Read once before the ResizeObserver's first report; cached afterwards.
    if (this.viewHeight === 0) this.viewHeight = this.options.container.clientHeight;
    return this.viewHeight || this.rowHeight * 40;
  }

  private top(index: number): number {
    const extra = this.expandedIndex >= 0 && index > this.expandedIndex ? this.expandedHeight : 0;
    return index * this.rowHeight + extra;
  }

  private indexAt(y: number): number {
    const e = this.expandedIndex;
    if (e < 0) return Math.floor(y / this.rowHeight);
    const detailTop = (e + 1) * this.rowHeight;
    if (y < detailTop) return Math.floor(y / this.rowHeight);
    if (y < detailTop + this.expandedHeight) return e;
    return Math.floor((y - this.expandedHeight) / this.rowHeight);
  }
}
