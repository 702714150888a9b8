// The shared formatting rules: sizes, durations, times, one-line text and template filling,
// as every surface (tree, notifications, the run panel) shows them.
import * as assert from 'node:assert/strict';
import {
  fill,
  formatBytes,
  formatDuration,
  formatLocalTime,
  formatShortLocalTime,
  formatUtcTime,
  shortenText,
} from '../../../src/common/format';

// Pinned so the expectations hold on any machine.
const BERLIN = { locale: 'en-GB', timeZone: 'Europe/Berlin', now: new Date('2026-11-21T20:00:00Z') };

describe('common/format', () => {
  it('formats sizes 1024-based with one decimal below 100 and none in bytes', () => {
    assert.equal(formatBytes(0, 'en'), '0 B');
    assert.equal(formatBytes(1023, 'en'), '1,023 B');
    assert.equal(formatBytes(1024, 'en'), '1.0 KB');
    assert.equal(formatBytes(1536, 'en'), '1.5 KB');
    assert.equal(formatBytes(200 * 1024, 'en'), '200 KB');
    assert.equal(formatBytes(512 * 1024 * 1024, 'en'), '512 MB');
    assert.equal(formatBytes(3 * 1024 ** 4, 'en'), '3.0 TB');
  });

  it('gives no size for missing, negative or non-numeric bytes', () => {
    assert.equal(formatBytes(undefined), undefined);
    assert.equal(formatBytes(-1), undefined);
    assert.equal(formatBytes(Number.NaN), undefined);
  });

  it('shows times in the given zone, and UTC with an explicit suffix', () => {
    const iso = '2026-11-21T23:28:52Z';
    assert.equal(formatUtcTime(iso), '2026-11-21 23:28:52 UTC');
    const local = formatLocalTime(iso, BERLIN) ?? '';
    assert.match(local, /22 Nov 2026/); // already the next day in Berlin
    assert.match(local, /00:28:52/);
  });

  it('shortens to the time only for today, else date and time', () => {
    const today = formatShortLocalTime('2026-11-21T09:05:00Z', BERLIN);
    assert.equal(today, '10:05');
    const earlier = formatShortLocalTime('2026-11-01T09:05:00Z', BERLIN) ?? '';
    assert.match(earlier, /1 Nov 2026/);
    assert.match(earlier, /10:05/);
  });

  it('keeps an unreadable timestamp verbatim instead of "Invalid Date"', () => {
    assert.equal(formatLocalTime('yesterday-ish'), 'yesterday-ish');
    assert.equal(formatShortLocalTime('yesterday-ish'), 'yesterday-ish');
    assert.equal(formatUtcTime('yesterday-ish'), 'yesterday-ish');
    assert.equal(formatLocalTime(undefined), undefined);
  });

  it('formats durations from milliseconds to hours', () => {
    assert.deepEqual([950, 1234, 65_000, 7_380_000].map(formatDuration), [
      '950 ms',
      '1.2 s',
      '1 min 05 s',
      '2 h 03 min',
    ]);
    assert.equal(formatDuration(-1), '');
  });

  it('fills numbered placeholders and leaves unknown ones', () => {
    assert.equal(fill('{0} of {1} ({2})', 3, 'five'), '3 of five ({2})');
  });

  it('gives one size for one number wherever it is shown (12,345 bytes is 12.1 KB)', () => {
    assert.equal(formatBytes(12_345, 'en'), '12.1 KB');
  });

  it('cuts long text on one line with an ellipsis, never splitting an emoji', () => {
    assert.equal(shortenText('  fix\n the   build ', 60), 'fix the build');
    assert.equal(shortenText('abcdefghij', 5), 'abcd…');
    assert.equal(shortenText('😀😀😀😀😀😀', 4), '😀😀😀…');
  });
});
