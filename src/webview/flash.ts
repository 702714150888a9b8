// The brief highlight of the row a jump landed on: set, then cleared after FLASH_MS with a redraw.

/** How long a row a jump landed on stays highlighted. */
const FLASH_MS = 1500;

export class Flash {
  /** The highlighted row's sequence, while it lasts. */
  sequence: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly redraw: () => void) {}

  set(sequence: number): void {
    this.sequence = sequence;
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.sequence = undefined;
      this.redraw();
    }, FLASH_MS);
  }
}
