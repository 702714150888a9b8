// A growable list of numbers in a typed array, and the binary searches that page and step
// through it once it is in ascending order: the filter index's event positions and find's
// matching sequences (gathered in scan order, then joined back into ascending order).

export abstract class SortedNumbers<A extends Uint32Array | Float64Array> {
  length = 0;

  protected constructor(protected data: A) {}

  /** A new, zeroed array of the list's kind. */
  protected abstract allocate(size: number): A;

  push(value: number): void {
    if (this.length === this.data.length) {
      const next = this.allocate(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }

  at(i: number): number {
    return this.data[i];
  }

  /** The first i with at(i) >= value (length when none); the list is ascending. */
  lowerBound(value: number): number {
    return this.firstIndexPast(value, false);
  }

  /** The first i with at(i) > value (length when none); the list is ascending. */
  upperBound(value: number): number {
    return this.firstIndexPast(value, true);
  }

  private firstIndexPast(value: number, orEqual: boolean): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.data[mid] < value || (orEqual && this.data[mid] === value)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
