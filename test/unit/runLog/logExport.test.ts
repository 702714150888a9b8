// Export: JSON lines give back every event as kept; the Markdown transcript has the header and
// the steps, and hostile server strings in it stay text (no link, image or HTML when rendered).
import * as assert from 'node:assert';
import { existsSync, promises as fsp, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { markdownText } from '../../../src/common/markdownLiteral';
import type { WireEvent } from '../../../src/runEvents/wire';
import { RunLogCache } from '../../../src/runLog/logCache';
import { exportLog } from '../../../src/runLog/logExport';
import { syntheticEvents, tempFolder } from './synthetic';

const HOSTILE = [
  '[x](command:foo)',
  '<img src=x onerror=alert(1)>',
  '![i](https://evil.example/p.png)',
  'https://evil.example',
  'www.evil.example',
  '# heading',
  '*bold* _it_ `code`',
  '&lt;b&gt;',
  'line1\nline2\r\n- forged item',
  '\u202eexe.txt',
  '<https://auto.link>',
  '[ref]: https://x',
];

/** markdown-it ships with the dev tools (VS Code's own preview renders with it); absent, that test is skipped. */
function markdownRenderer(): ((md: string) => string) | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const MarkdownIt = require('markdown-it') as new (o: { linkify: boolean; html: boolean }) => {
      render(md: string): string;
    };
    const md = new MarkdownIt({ linkify: true, html: true });
    return (text) => md.render(text);
  } catch {
    return undefined;
  }
}

describe('exportLog', function () {
  this.timeout(30_000);
  let folder: ReturnType<typeof tempFolder>;
  let cache: RunLogCache;
  const hostileEvents: WireEvent[] = [
    { event: 'plan.created', data: { sequence: 1, steps: 2, strategy: HOSTILE[0] } },
    { event: 'step.started', data: { sequence: 2, step_id: 's1', title: HOSTILE[0] } },
    ...HOSTILE.map((text, i) => ({
      event: 'tool.called',
      data: { sequence: 3 + 2 * i, step_id: 's1', tool: text, arguments: { path: text } },
    })),
    ...HOSTILE.map((text, i) => ({
      event: 'observation.recorded',
      data: { sequence: 4 + 2 * i, step_id: 's1', summary: text },
    })),
    { event: '<b>odd</b>', data: { sequence: 100, text: HOSTILE[1] } },
    { event: 'step.completed', data: { sequence: 101, step_id: 's1', duration_ms: 12 } },
    { event: 'run.failed', data: { sequence: 102, status: HOSTILE[0] } },
  ].sort((a, b) => a.data.sequence - b.data.sequence);

  beforeEach(async () => {
    folder = tempFolder();
    cache = (await RunLogCache.open(path.join(folder.dir, 'run_e.events.jsonl'))).cache;
  });
  afterEach(async () => {
    await cache.close();
    folder.remove();
  });

  it('JSON lines: one event per line, read back equal to the cache, in order', async () => {
    cache.append(syntheticEvents(1, 5000));
    const target = path.join(folder.dir, 'out.jsonl');
    const progress: number[] = [];
    assert.strictEqual(
      await exportLog(cache, 'jsonl', target, { runId: 'run_e' }, { onProgress: (n) => progress.push(n) }),
      5000,
    );
    const lines = (await fsp.readFile(target, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as WireEvent);
    assert.deepStrictEqual(lines, await cache.read(0, 5000));
    assert.strictEqual(progress[progress.length - 1], 5000);
  });

  it('Markdown: a header, a section per step, and the events as lines', async () => {
    cache.append(syntheticEvents(1, 25));
    const target = path.join(folder.dir, 'out.md');
    await exportLog(cache, 'markdown', target, { runId: 'run_e', objective: 'Fix the build', status: 'completed' });
    const md = await fsp.readFile(target, 'utf8');
    assert.match(md, /^# Run run\\_e\n\n- Objective: Fix the build\n- Status: completed\n- Events: 25\n/);
    assert.strictEqual(md.match(/^## Step \d+: /gm)?.length, 3);
    assert.match(md, /^- \\#2 Tool call \*\*shell\*\*: /m);
    assert.match(md, /^- \\#3 Observation: ok 3$/m);
  });

  it('hostile strings stay inert: escaped in the Markdown, and no link, image or HTML when rendered', async () => {
    cache.append(hostileEvents);
    const target = path.join(folder.dir, 'hostile.md');
    await exportLog(cache, 'markdown', target, { runId: 'run_e', objective: HOSTILE[1], status: HOSTILE[0] });
    const md = await fsp.readFile(target, 'utf8');
    assert.ok(
      !md.includes('](') && !/(?<!\\)</.test(md) && !md.includes('\u202e'),
      'no raw link, tag or bidi override',
    );
    assert.ok(md.includes('\\[x\\]\\(command\\:foo\\)'));
    // Every line of the transcript is one we wrote: a newline in a value cannot forge an item.
    assert.ok(!/^- forged/m.test(md));
    const render = markdownRenderer();
    if (!render) {
      return;
    }
    const html = render(md);
    assert.ok(!/<a[\s>]|<img|<b>|<script/i.test(html), html);
    assert.strictEqual(html.match(/<h1>/g)?.length, 1);
  });

  it('markdownText keeps the words: punctuation escaped, newlines and hidden characters visible', () => {
    assert.strictEqual(markdownText('a [b](c)'), 'a \\[b\\]\\(c\\)');
    assert.strictEqual(markdownText('x\ny'), 'x ⏎ y');
    assert.strictEqual(markdownText('\u202e'), '\\\\u202e');
    assert.strictEqual(markdownText({ k: 1 }), '\\{\\"k\\"\\:1\\}');
  });

  it('a cancelled export leaves neither the target nor its temporary file', async () => {
    cache.append(syntheticEvents(1, 20_000));
    const target = path.join(folder.dir, 'cancelled.md');
    const controller = new AbortController();
    const run = exportLog(
      cache,
      'markdown',
      target,
      { runId: 'run_e' },
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    await assert.rejects(run);
    assert.ok(!existsSync(target));
    assert.deepStrictEqual(
      readdirSync(folder.dir).filter((n) => n.includes('cancelled')),
      [],
    );
  });
});
