// The API key never appears in a log line, an error message, a stack, a cause, or any
// serialisation of a thrown object, whatever fails.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { truncate, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describeError } from '../../../src/api/errorSentences';
import { startRuntime } from '../../runtime/index';
import { CapturingLogger, makeTempDir, QUICK_BACKOFF, startRecordingServer } from './fixtures';
import { ApiClient } from './transportUnderTest';

function everythingSaidAbout(err: unknown): string {
  const parts: string[] = [describeError(err), inspect(err, { depth: 10, showHidden: true })];
  let current: unknown = err;
  for (let depth = 0; current !== undefined && current !== null && depth < 10; depth++) {
    if (current instanceof Error) {
      parts.push(
        current.message,
        String(current.stack),
        JSON.stringify(current),
        JSON.stringify(Object.entries(current)),
      );
      current = (current as Error & { cause?: unknown }).cause;
    } else {
      parts.push(String(current), JSON.stringify(current) ?? '');
      break;
    }
  }
  return parts.join('\n');
}

describe('api/client secrets', () => {
  it('no log line or error of any failure mentions the key', async function () {
    this.timeout(60_000);
    const goodKey = `sk-good-${randomBytes(12).toString('hex')}`;
    const wrongKey = `sk-wrong-${randomBytes(12).toString('hex')}`;
    const readOnlyKey = `sk-ro-${randomBytes(12).toString('hex')}`;
    const runtime = await startRuntime({ apiKeys: [goodKey], readOnlyKeys: [readOnlyKey] });
    const temp = await makeTempDir();
    // A server that echoes the Authorization header back in its error, as a careless one might.
    const echo = await startRecordingServer((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            type: 'x',
            code: String(req.headers.authorization),
            message: `bad key ${req.headers.authorization}`,
            param: String(req.headers.authorization).slice('Bearer '.length),
          },
        }),
      );
    });
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));

    const logger = new CapturingLogger();
    const clients: ApiClient[] = [];
    const make = (key: string, baseUrl = runtime.baseUrl, extra = {}): ApiClient => {
      const c = new ApiClient({ baseUrl, getApiKey: async () => key, logger, backoff: QUICK_BACKOFF, ...extra });
      clients.push(c);
      return c;
    };
    const errors: unknown[] = [];
    const capture = async (p: Promise<unknown>): Promise<void> => {
      await p.then(
        () => undefined,
        (e: unknown) => void errors.push(e),
      );
    };
    try {
      const good = make(goodKey);
      const file = join(temp.dir, 'f.txt');
      await writeFile(file, 'content');
      const big = join(temp.dir, 'big.bin');
      await writeFile(big, '');
      await truncate(big, 600 * 1024 * 1024);
      const uploaded = await good.uploadFile(file);

      await capture(make(wrongKey).listTasks());
      await capture(make(readOnlyKey).createTask({ objective: 'x' }));
      await capture(good.getFile('file_missing'));
      await capture(good.uploadFile(big));
      await capture(good.uploadFile(join(temp.dir, 'missing.txt')));
      runtime.setFaults({ failNext: { count: 5, status: 502, html: true } });
      await capture(good.listTasks());
      runtime.setFaults({ cutDownloadAfterBytes: 2 });
      await capture(good.downloadFile(uploaded.id, join(temp.dir, 'out', 'f.txt')));
      runtime.setFaults({ delayMs: 2000 });
      await capture(make(goodKey, runtime.baseUrl, { timeoutMs: 100, maxRetries: 0 }).listTasks());
      const controller = new AbortController();
      const pending = capture(good.listTasks({}, { signal: controller.signal }));
      controller.abort();
      await pending;
      runtime.clearFaults();
      await capture(make(goodKey, `http://127.0.0.1:${closedPort}`).listTasks());
      await capture(make(goodKey, 'http://example.com').listTasks());
      await capture(make(goodKey, echo.baseUrl).listTasks());
      await capture(make(wrongKey, echo.baseUrl).listTasks());
    } finally {
      await Promise.all(clients.map((c) => c.dispose()));
      await echo.close();
      await runtime.close();
      await temp.remove();
    }

    assert.ok(errors.length >= 12, `collected ${errors.length} errors`);
    assert.ok(logger.lines.length >= 12);
    const haystack = [...logger.lines, ...errors.map(everythingSaidAbout)].join('\n');
    for (const key of [goodKey, wrongKey, readOnlyKey]) {
      assert.ok(!haystack.includes(key), `the key ${key.slice(0, 8)}... leaked`);
    }
    // The echoing server's message is still useful, with the key blotted out.
    assert.match(haystack, /bad key Bearer \*\*\*/);
  });
});
