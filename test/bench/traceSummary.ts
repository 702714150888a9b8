// Sums up a timeline trace written by the panel-latency or typing benchmark (LATENCY_TRACE=paint):
// where the page's main thread spent its time (self time by event name), the paints (per frame,
// i.e. per document, with the area each painted), the raster and compositor threads' time, and
// the frames drawn. Run: `node out/test/bench/traceSummary.js <file.trace.json> [more files]`.
import * as fs from 'node:fs';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown>; [key: string]: unknown };
}

interface Span {
  name: string;
  start: number;
  end: number;
  event: TraceEvent;
}

function spansOf(events: TraceEvent[]): Map<string, Span[]> {
  const byThread = new Map<string, Span[]>();
  const open = new Map<string, TraceEvent[]>();
  const add = (key: string, span: Span) => {
    const list = byThread.get(key) ?? [];
    list.push(span);
    byThread.set(key, list);
  };
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph === 'X' && e.dur !== undefined) {
      add(key, { name: e.name, start: e.ts, end: e.ts + e.dur, event: e });
    } else if (e.ph === 'B') {
      const stack = open.get(key) ?? [];
      stack.push(e);
      open.set(key, stack);
    } else if (e.ph === 'E') {
      const begin = open.get(key)?.pop();
      if (begin) {
        add(key, { name: begin.name, start: begin.ts, end: e.ts, event: begin });
      }
    }
  }
  for (const list of byThread.values()) {
    list.sort((a, b) => a.start - b.start || b.end - a.end);
  }
  return byThread;
}

/** Self time by name (children subtracted), for one thread's spans. */
function selfTimes(spans: Span[]): Map<string, { self: number; total: number; count: number }> {
  const out = new Map<string, { self: number; total: number; count: number }>();
  const stack: { span: Span; child: number }[] = [];
  const close = (until: number) => {
    while (stack.length > 0 && stack[stack.length - 1].span.end <= until) {
      const top = stack.pop();
      if (!top) {
        break;
      }
      const dur = top.span.end - top.span.start;
      const entry = out.get(top.span.name) ?? { self: 0, total: 0, count: 0 };
      entry.self += dur - top.child;
      entry.total += dur;
      entry.count++;
      out.set(top.span.name, entry);
      if (stack.length > 0) {
        stack[stack.length - 1].child += dur;
      }
    }
  };
  for (const span of spans) {
    close(span.start);
    stack.push({ span, child: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  return out;
}

function area(clip: unknown): number {
  if (!Array.isArray(clip) || clip.length < 8) {
    return 0;
  }
  const xs = [clip[0], clip[2], clip[4], clip[6]] as number[];
  const ys = [clip[1], clip[3], clip[5], clip[7]] as number[];
  return (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
}

function summarise(file: string): void {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as TraceEvent[] | { traceEvents: TraceEvent[] };
  const events = Array.isArray(raw) ? raw : raw.traceEvents;
  const threadNames = new Map<string, string>();
  const processNames = new Map<number, string>();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') {
      threadNames.set(`${e.pid}:${e.tid}`, String(e.args?.name));
    }
    if (e.ph === 'M' && e.name === 'process_name') {
      processNames.set(e.pid, String(e.args?.name));
    }
  }
  // Frame ids to URLs.
  const frames = new Map<string, string>();
  for (const e of events) {
    const data = e.args?.data;
    const list = (data?.frames as { frame: string; url: string }[] | undefined) ?? [];
    for (const f of list) {
      frames.set(f.frame, f.url);
    }
    if (data && typeof data.frame === 'string' && typeof data.url === 'string' && data.url) {
      frames.set(data.frame, data.url);
    }
  }
  const timed = events.filter((e) => e.ph === 'X' || e.ph === 'B' || e.ph === 'E');
  const first = Math.min(...timed.map((e) => e.ts));
  const last = Math.max(...timed.map((e) => e.ts + (e.dur ?? 0)));
  const wallMs = (last - first) / 1000;
  console.log(`\n${file}: ${events.length} events over ${wallMs.toFixed(0)} ms`);
  const byThread = spansOf(timed);
  const rows: { key: string; busy: number }[] = [];
  for (const [key, spans] of byThread) {
    const tops = spans.filter((s) => s.name === 'ThreadControllerImpl::RunTask' || s.name === 'RunTask');
    let busy = 0;
    let end = 0;
    for (const s of tops) {
      if (s.end > end) {
        busy += s.end - Math.max(s.start, end);
        end = s.end;
      }
    }
    rows.push({ key, busy });
  }
  rows.sort((a, b) => b.busy - a.busy);
  console.log('threads, busy (top-level tasks) as a share of the trace:');
  for (const { key, busy } of rows.slice(0, 12)) {
    const pid = Number(key.split(':')[0]);
    console.log(
      `  ${(threadNames.get(key) ?? key).padEnd(28)} ${(processNames.get(pid) ?? String(pid)).padEnd(10)} ${((busy / 1000 / wallMs) * 100).toFixed(1)} %`,
    );
  }
  for (const { key } of rows.filter((r) => /Main|Compositor|Raster|VizCompositor/.test(threadNames.get(r.key) ?? ''))) {
    const spans = byThread.get(key) ?? [];
    const self = [...selfTimes(spans)].sort((a, b) => b[1].self - a[1].self).slice(0, 22);
    if (self.length === 0 || self[0][1].self < wallMs * 10) {
      continue;
    }
    console.log(`self time on ${threadNames.get(key)} (${key}), ms / % of the trace / count:`);
    for (const [name, t] of self) {
      console.log(
        `  ${name.padEnd(44)} ${(t.self / 1000).toFixed(0).padStart(6)} ${((t.self / 1000 / wallMs) * 100).toFixed(1).padStart(5)} % ${String(t.count).padStart(6)}`,
      );
    }
  }
  // Paints: per document and paint root (a composited layer's node), with the area painted
  // (Chromium's cull rect: the whole layer; an animated layer's is unbounded).
  const paints = timed.filter((e) => e.name === 'Paint' && e.ph === 'X');
  const byRoot = new Map<string, { count: number; area: number; ms: number }>();
  for (const p of paints) {
    const data = p.args?.data ?? {};
    const frame = String(data.frame ?? '?');
    const url = (frames.get(frame) ?? frame).replace(/[?#].*$/, '');
    const doc = url.includes('vscode-resource') ? 'webview' : url.includes('/static/') ? 'workbench' : url.slice(-40);
    const key = `${doc}: ${String(data.nodeName ?? '?').slice(0, 70)}`;
    const entry = byRoot.get(key) ?? { count: 0, area: 0, ms: 0 };
    entry.count++;
    entry.area += Math.min(area(data.clip), 1e8);
    entry.ms += (p.dur ?? 0) / 1000;
    byRoot.set(key, entry);
  }
  console.log('Paint by document and paint root: per second, ms in all, mean area (px², 1e8: unbounded):');
  for (const [key, e] of [...byRoot].sort((a, b) => b[1].count - a[1].count).slice(0, 15)) {
    console.log(
      `  ${(e.count / (wallMs / 1000)).toFixed(1).padStart(6)}/s ${e.ms.toFixed(0).padStart(6)} ms ${String(Math.round(e.area / e.count)).padStart(10)}  ${key}`,
    );
  }
  const counts = new Map<string, number>();
  for (const e of timed) {
    if (
      /DrawFrame|BeginMainThreadFrame|BeginFrame|RasterTask|Animation|ScrollUpdate|Commit|ActivateLayerTree/.test(
        e.name,
      )
    ) {
      counts.set(e.name, (counts.get(e.name) ?? 0) + 1);
    }
  }
  console.log('frame events per second:');
  for (const [name, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
    console.log(`  ${name.padEnd(44)} ${(n / (wallMs / 1000)).toFixed(1)}/s`);
  }
}

for (const file of process.argv.slice(2)) {
  summarise(file);
}
