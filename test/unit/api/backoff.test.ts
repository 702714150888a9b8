// Waiting between attempts: the backoff curve with jitter, the server's Retry-After in its three
// forms (clamped to 60 s), and a sleep that an abort ends at once.
import * as assert from 'node:assert/strict';
import { backoffDelay, MAX_RETRY_AFTER_MS, parseRetryAfter, sleep } from '../../../src/api/backoff';

describe('api/backoff', () => {
  it('doubles from 0.5 s up to 8 s, with jitter between half and the whole nominal delay', () => {
    const policy = { baseMs: 500, capMs: 8000 };
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 9].map((n) => backoffDelay(n, policy, () => 1)),
      [500, 1000, 2000, 4000, 8000, 8000, 8000],
    );
    assert.deepEqual(
      [0, 4].map((n) => backoffDelay(n, policy, () => 0)),
      [250, 4000],
    );
  });

  it('reads retry-after-ms, Retry-After seconds and an HTTP date, and clamps to 60 s', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter({ 'retry-after-ms': '1500', 'retry-after': '9' }, now), 1500);
    assert.equal(parseRetryAfter({ 'retry-after': '2' }, now), 2000);
    assert.equal(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now), 5000);
    assert.equal(parseRetryAfter({ 'retry-after': '3600' }, now), MAX_RETRY_AFTER_MS);
    assert.equal(parseRetryAfter({ 'retry-after': 'soon' }, now), undefined);
    assert.equal(parseRetryAfter({}, now), undefined);
  });

  it('sleep rejects as soon as its signal aborts', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort();
    await assert.rejects(waiting, { name: 'AbortError' });
  });
});
