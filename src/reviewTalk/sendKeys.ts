// The Idempotency-Key of a send of review comments, kept per what is sent: a retry of the same
// body (same run, same way, same comments and instructions) reuses the key, so the server answers
// with the run the first attempt made; a body the person changed in between gets a new key, so it
// is never answered with the old request's run. Plain Node (no vscode).
import { createHash, randomUUID } from 'node:crypto';

/** At most this many unsettled sends are remembered (the oldest goes first). */
export const MAX_PENDING_SENDS = 20;

export class SendKeys {
  private readonly pending = new Map<string, string>();

  /** The key for this exact body: the one kept from an unsettled attempt, else a new one. */
  keyFor(runId: string, way: string, body: unknown): { digest: string; key: string } {
    const digest = sendDigest(runId, way, body);
    let key = this.pending.get(digest);
    if (key === undefined) {
      key = randomUUID();
      this.pending.set(digest, key);
      while (this.pending.size > MAX_PENDING_SENDS) {
        this.pending.delete(this.pending.keys().next().value as string);
      }
    }
    return { digest, key };
  }

  /** The send succeeded: its key is not reused (the same comments sent again are a new run). */
  settle(digest: string): void {
    this.pending.delete(digest);
  }

  get size(): number {
    return this.pending.size;
  }
}

/** SHA-256 of the run, the way and the JSON of what goes out. */
export function sendDigest(runId: string, way: string, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([runId, way, body]))
    .digest('hex');
}
