// What the API layer says (errors, log lines) never carries a password from the base URL, never
// part of an API key, and never lets server text start a line of its own in the log.
import * as assert from 'node:assert/strict';
import { redact } from '../../../src/api/errors';
import { describeError } from '../../../src/api/errorSentences';
import { RunEventSubscription } from '../../../src/api/events';
import { CapturingLogger, json, rejectionOf, startRecordingServer } from './fixtures';
import { ApiClient } from './transportUnderTest';

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

describe('api messages and log lines', () => {
  it('never echoes user:password of a base URL that cannot be parsed', async () => {
    for (const raw of [
      'https://admin:hunter2 pass@ho st/',
      'https://admin:hun/ter2@[bad',
      'http://admin:hunter2@exa mple.com:99999',
    ]) {
      const logger = new CapturingLogger();
      const client = new ApiClient({ baseUrl: raw, getApiKey: async () => 'k-1234', logger });
      const err = await rejectionOf(client.getTask('task_1'));
      const said = [client.baseUrl, (err as Error).message, describeError(err), ...logger.lines].join('\n');
      assert.doesNotMatch(said, /hunter2|hun\/ter2/, said);
      assert.doesNotMatch(said, /admin/, said);
      await client.dispose();
    }
    // Without a scheme the user name parses as one ("admin:"); the password still never shows.
    const bare = new ApiClient({ baseUrl: 'admin:hunter2@example.com', getApiKey: async () => 'k-1234' });
    const err = await rejectionOf(bare.getTask('task_1'));
    assert.doesNotMatch([bare.baseUrl, (err as Error).message, describeError(err)].join('\n'), /hunter2/);
    await bare.dispose();
  });

  it('redacts the whole key, even one with spaces after "Bearer", and any non-empty key', () => {
    const spaced = 'my secret key';
    assert.equal(
      redact(`Authorization: Bearer ${spaced} was rejected`, spaced),
      'Authorization: Bearer *** was rejected',
    );
    assert.doesNotMatch(redact(`key=${spaced}; Bearer ${spaced}`, spaced), /secret/);
    assert.equal(redact('the key abc is wrong', 'abc'), 'the key *** is wrong');
    assert.equal(redact('Bearer tok123 refused'), 'Bearer *** refused');
    assert.equal(redact('nothing here', ''), 'nothing here');
  });

  it('escapes CR, LF and other control characters of server text in every log line', async () => {
    const forged = 'bad\n2026-01-01 00:00:00.000 [info] GET /v1/files -> 200 forged\r\u001b[31mred\u0007';
    const server = await startRecordingServer((req, res) => {
      if (req.url.includes('/events')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          `event: step.started\ndata: {"no_sequence": "${forged.replace(/\n|\r/g, '').replace(/\u001b/g, '\\u001b')}"}\n\n`,
        );
        return;
      }
      json(res, 400, { error: { type: 'invalid_request_error', code: 'bad\ncode', message: forged } });
    });
    const logger = new CapturingLogger();
    const client = new ApiClient({ baseUrl: server.baseUrl, getApiKey: async () => 'k-1234', logger, maxRetries: 0 });
    try {
      const err = await rejectionOf(client.createTask({ objective: 'x' }));
      const sub = new RunEventSubscription(client, 'run_1', { logger, idleTimeoutMs: 0 });
      const iterator = sub[Symbol.asyncIterator]();
      // The stream closes after one unreadable message; stop once it has been skipped.
      const pending = iterator.next();
      const deadline = Date.now() + 10_000;
      while (sub.skipped === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 5));
      }
      sub.close();
      await pending;
      assert.equal(sub.skipped, 1);
      assert.ok(
        logger.lines.some((l) => l.includes('forged')),
        logger.lines.join('\n'),
      );
      for (const line of logger.lines) {
        assert.doesNotMatch(line, CONTROL, JSON.stringify(line));
      }
      assert.ok(
        logger.lines.some((l) => l.includes('bad\\n2026')),
        logger.lines.join('\n'),
      );
      assert.ok(
        logger.lines.some((l) => l.includes('\\u001b[31m')),
        logger.lines.join('\n'),
      );
      assert.doesNotMatch(describeError(err), CONTROL);
    } finally {
      await client.dispose();
      await server.close();
    }
  });
});
