// A fake extension host inside the harness page, for the page tests and the benchmark of the
// whole log: it keeps a generated run log in the page and answers the webview's `page` and
// `find` the way the real host does (src/runEvents/logQuery.ts decides what matches: it is
// bundled in, not written again). Installed as an init script, before the panel's own.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import { tapPostedMessages } from './postTap';

const ROOT =
  [path.resolve(__dirname, '..', '..', '..', '..'), process.cwd()].find((dir) =>
    fs.existsSync(path.join(dir, 'src', 'runPanel', 'logQuery.ts')),
  ) ?? process.cwd();

let bundle: Promise<string> | undefined;

function logQueryBundle(): Promise<string> {
  bundle ??= build({
    stdin: {
      contents: `import { matchesFilter, matchesQuery, normalizeQuery } from './src/runEvents/logQuery';
        window.__logQuery = { matchesFilter, matchesQuery, normalizeQuery };`,
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0].text);
  return bundle;
}

export interface FakeHostOptions {
  /** Events in the log: a plan, then steps of a start, 4 tool calls with observations, a completion. */
  events: number;
  /** A `found` with progress before the final one (the "so far" text). */
  findProgress?: boolean;
  /** Milliseconds before each answer. */
  delayMs?: number;
  /** Keep `page` answers in `window.__heldPages` until the test posts them (in any order). */
  holdPages?: boolean;
}

/**
 * The init script: the log (generated in the page, so 1,000,000 events need no transfer), the
 * host's answers, and `window.__hostLog` (the messages the host got). `window.__logEvents` is
 * the log; `window.__fakeHostEvents(from, to)` gives a slice for live messages.
 */
export async function fakeHostScript(options: FakeHostOptions): Promise<string> {
  const logQuery = await logQueryBundle();
  return `${logQuery}
(() => {
  const total = ${options.events};
  const delay = ${options.delayMs ?? 0};
  const progress = ${options.findProgress ? 'true' : 'false'};
  // One event per call: the log is kept as an array of events made on demand and cached.
  const cache = new Map();
  const perStep = 10;
  function make(seq) {
    if (seq === 1) return { event: 'plan.created', data: { sequence: 1, steps: Math.floor((total - 1) / perStep), strategy: 'sequential' } };
    const i = seq - 2;
    const s = Math.floor(i / perStep) + 1;
    const k = i % perStep;
    const step_id = 'step_' + s;
    if (k === 0) return { event: 'step.started', data: { sequence: seq, step_id, title: 'Step ' + s + ': read the inputs' } };
    if (k === perStep - 1) return { event: 'step.completed', data: { sequence: seq, step_id, duration_ms: 1000 + s } };
    const t = Math.floor((k - 1) / 2);
    if ((k - 1) % 2 === 0) return { event: 'tool.called', data: { sequence: seq, step_id, tool: t % 2 === 0 ? 'search' : 'read_file', path: 'file_' + s + '_' + t + '.md' } };
    return { event: 'observation.recorded', data: { sequence: seq, step_id, summary: 'Found ' + (t + s) + ' passages' } };
  }
  function at(seq) {
    let e = cache.get(seq);
    if (!e) { e = make(seq); if (cache.size > 50000) cache.clear(); cache.set(seq, e); }
    return e;
  }
  window.__fakeHostEvents = (from, to) => { const out = []; for (let s = from; s < to && s <= total; s++) out.push(at(s)); return out; };
  window.__hostLog = [];
  window.__hostTotal = total;
  const q = () => window.__logQuery;
  const passes = (seq, filter) => q().matchesFilter(at(seq), filter);
  const totals = new Map();
  function count(filter) {
    const key = JSON.stringify(filter);
    // The real host knows its log's length; only a filter needs a scan (host work, kept off the figures).
    if (key === '{}') return total;
    if (!totals.has(key)) { let n = 0; for (let s = 1; s <= total; s++) if (passes(s, filter)) n++; totals.set(key, n); }
    return totals.get(key);
  }
  const hold = ${options.holdPages ? 'true' : 'false'};
  window.__heldPages = [];
  const reply = (m) => hold && m.type === 'page' ? window.__heldPages.push(m) : setTimeout(() => window.postMessage(m, '*'), delay);
  function page(m) {
    const f = m.filter;
    const older = [];
    const newer = [];
    const wantOlder = m.direction === 'before' ? m.limit : m.direction === 'around' ? Math.floor(m.limit / 2) : 0;
    const wantNewer = m.direction === 'after' ? m.limit : m.direction === 'around' ? m.limit - wantOlder : 0;
    const firstNewer = m.direction === 'after' ? m.sequence + 1 : m.sequence;
    let s = Math.min(total, (m.direction === 'after' ? m.sequence : m.sequence - 1));
    if (m.direction !== 'after') for (; s >= 1 && older.length < wantOlder; s--) if (passes(s, f)) older.push(at(s));
    let before = false;
    for (let b = s; b >= 1 && m.direction !== 'after'; b--) if (passes(b, f)) { before = true; break; }
    let n = Math.max(1, firstNewer);
    if (m.direction !== 'before') for (; n <= total && newer.length < wantNewer; n++) if (passes(n, f)) newer.push(at(n));
    let after = false;
    for (let a = m.direction === 'before' ? Math.max(1, m.sequence) : n; a <= total; a++) if (passes(a, f)) { after = true; break; }
    if (m.direction === 'after') before = true;
    reply({ type: 'page', requestId: m.requestId, events: [...older.reverse(), ...newer], before, after, total: count(f) });
  }
  function find(m) {
    const query = q().normalizeQuery(m.query);
    const matches = [];
    for (let s = 1; s <= total; s++) if (passes(s, m.filter) && q().matchesQuery(at(s), query)) matches.push(s);
    let i = m.direction === 'next' ? matches.findIndex((s) => s > m.from) : matches.length - 1 - [...matches].reverse().findIndex((s) => s < m.from);
    if (m.direction === 'next' && i < 0) i = 0;
    if (m.direction === 'prev' && (i >= matches.length || i < 0)) i = matches.length - 1;
    const hit = matches.length ? matches[i] : undefined;
    if (progress) reply({ type: 'found', requestId: m.requestId, sequence: hit, count: Math.ceil(matches.length / 2), scanned: Math.floor(total / 2), total, done: false });
    setTimeout(() => reply({ type: 'found', requestId: m.requestId, sequence: hit, ordinal: hit === undefined ? undefined : i + 1, count: matches.length, scanned: total, total, done: true }), progress ? 400 : 0);
  }
  ${tapPostedMessages(`(m) => {
    window.__hostLog.push(m);
    if (m && m.type === 'page') page(m);
    else if (m && m.type === 'find') find(m);
  }`)}
})();`;
}
