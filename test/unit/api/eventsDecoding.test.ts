// Decoding one SSE message into a typed RunEvent, and the byte-level SSE reader: pure code,
// tested without a server (the subscription's tests cover the same paths over real sockets).
import * as assert from 'node:assert/strict';
import { decodeRunEvent, terminalStatus } from '../../../src/api/runEventDecoding';
import { SseReader } from '../../../src/api/sseReader';
import type { RunEvent } from '../../../src/api/types';

function decoded(name: string | undefined, data: string): RunEvent {
  const result = decodeRunEvent(name, data);
  assert.ok(result.ok, result.ok ? '' : result.reason);
  return result.event;
}

describe('decodeRunEvent', () => {
  it('types the five known kinds and the terminal events when their fields have the spec types', () => {
    const cases: [string, Record<string, unknown>][] = [
      ['plan.created', { sequence: 1, steps: 3, strategy: 'split' }],
      ['step.started', { sequence: 2, step_id: 's1', title: 'Read' }],
      ['tool.called', { sequence: 3, tool: 'read_file', step_id: 's1' }],
      ['observation.recorded', { sequence: 4, step_id: 's1', summary: 'ok' }],
      ['step.completed', { sequence: 5, step_id: 's1', duration_ms: 12 }],
      ['run.completed', { sequence: 6, status: 'completed' }],
      ['run.failed', { sequence: 7 }],
      ['run.cancelled', { sequence: 8, status: 'cancelled' }],
    ];
    for (const [name, data] of cases) {
      assert.deepEqual(decoded(name, JSON.stringify(data)), { event: name, known: true, data }, name);
    }
  });

  it('keeps unknown fields of a known kind', () => {
    const event = decoded('tool.called', '{"sequence":3,"tool":"t","step_id":"s","args":{"a":[1,2]}}');
    assert.equal(event.known, true);
    assert.deepEqual(event.data.args, { a: [1, 2] });
  });

  it('passes a known kind whose fields have other types on as unknown, intact', () => {
    const cases: [string, Record<string, unknown>][] = [
      ['plan.created', { sequence: 1, steps: '3', strategy: 'split' }],
      ['plan.created', { sequence: 1, steps: 2.5, strategy: 'split' }],
      ['step.started', { sequence: 2, step_id: 's1' }],
      ['step.completed', { sequence: 5, step_id: 's1', duration_ms: null }],
      ['run.completed', { sequence: 6, status: 1 }],
    ];
    for (const [name, data] of cases) {
      assert.deepEqual(decoded(name, JSON.stringify(data)), { event: name, known: false, data }, JSON.stringify(data));
    }
  });

  it('passes unknown kinds on with their name and raw object, and names a message without event: "message"', () => {
    assert.deepEqual(decoded('approval.requested', '{"sequence":9,"who":["a"]}'), {
      event: 'approval.requested',
      known: false,
      data: { sequence: 9, who: ['a'] },
    });
    assert.deepEqual(decoded(undefined, '{"sequence":10}'), { event: 'message', known: false, data: { sequence: 10 } });
    assert.equal(decoded('constructor', '{"sequence":11}').known, false);
  });

  it('refuses malformed JSON, non-objects and a missing or non-integer sequence, with a short one-line reason', () => {
    for (const data of [
      '{"sequence": 1,',
      'not json',
      '[1,2]',
      'null',
      '7',
      '{"step_id":"s"}',
      '{"sequence":"1"}',
      '{"sequence":1.5}',
      '{"sequence":1e300}',
      '{"sequence":-1}',
      `{"x":"${'y'.repeat(500)}\n"`,
    ]) {
      const result = decodeRunEvent('step.started', data);
      assert.equal(result.ok, false, data);
      if (!result.ok) {
        assert.ok(result.reason.length < 250, result.reason);
        assert.ok(!/[\r\n]/.test(result.reason));
      }
    }
  });

  it('reads the terminal status from the event, else from its name', () => {
    assert.equal(terminalStatus(decoded('run.failed', '{"sequence":1,"status":"failed"}')), 'failed');
    assert.equal(terminalStatus(decoded('run.cancelled', '{"sequence":1}')), 'cancelled');
    assert.equal(
      terminalStatus(decoded('run.completed', '{"sequence":1,"status":"completed_with_warnings"}')),
      'completed_with_warnings',
    );
  });
});

describe('SseReader', () => {
  function readAll(
    chunks: Uint8Array[],
    end = true,
  ): { messages: { event?: string; data: string }[]; retries: number[] } {
    const messages: { event?: string; data: string }[] = [];
    const retries: number[] = [];
    const reader = new SseReader({
      onMessage: (m) => messages.push({ event: m.event, data: m.data }),
      onRetry: (ms) => retries.push(ms),
      onTooLarge: () => assert.fail('too large'),
    });
    for (const chunk of chunks) {
      reader.push(chunk);
    }
    if (end) {
      reader.end();
    }
    return { messages, retries };
  }

  it('gives the same messages however the bytes are split, for LF, CRLF and CR endings', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = [
        `retry: 250`,
        ``,
        `: keep-alive`,
        ``,
        `event: a`,
        `data: {"t":"é日🎉"}`,
        ``,
        `event: b`,
        `data: line1`,
        `data: line2`,
        ``,
        ``,
      ].join(eol);
      const bytes = Buffer.from(text);
      const whole = readAll([bytes]);
      assert.deepEqual(whole.messages, [
        { event: 'a', data: '{"t":"é日🎉"}' },
        { event: 'b', data: 'line1\nline2' },
      ]);
      assert.deepEqual(whole.retries, [250]);
      for (let i = 0; i <= bytes.length; i++) {
        for (let j = i; j <= bytes.length; j += 7) {
          assert.deepEqual(
            readAll([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]),
            whole,
            `split at ${i}/${j} (${JSON.stringify(eol)})`,
          );
        }
      }
    }
  });

  it('drops a message cut before its blank line, and reset() forgets a half-read line and character', () => {
    const messages: string[] = [];
    const reader = new SseReader({
      onMessage: (m) => messages.push(m.data),
      onRetry: () => undefined,
      onTooLarge: () => undefined,
    });
    reader.push(Buffer.from('data: {"a":1}\n\ndata: {"cut":'));
    reader.push(Buffer.from('日').subarray(0, 2));
    reader.end();
    assert.deepEqual(messages, ['{"a":1}']);
    reader.reset();
    reader.push(Buffer.from('data: fresh\n\n'));
    assert.deepEqual(messages, ['{"a":1}', 'fresh']);
  });

  it('a character cut short and followed by ASCII becomes U+FFFD in its place, not later', () => {
    const cut = Buffer.from('日').subarray(0, 2);
    const { messages } = readAll([Buffer.from('data: a'), cut, Buffer.from('b\n\n'), Buffer.from('data: é\n\n')]);
    assert.deepEqual(messages, [
      { event: undefined, data: 'a\uFFFDb' },
      { event: undefined, data: 'é' },
    ]);
  });

  it('stops at a message larger than its limit and says so', () => {
    let tooLarge = 0;
    const reader = new SseReader(
      {
        onMessage: () => assert.fail('no message expected'),
        onRetry: () => undefined,
        onTooLarge: (limit) => (tooLarge = limit),
      },
      1000,
    );
    reader.push(Buffer.from(`data: ${'x'.repeat(2000)}`));
    reader.push(Buffer.from('\n\n'));
    assert.equal(tooLarge, 1000);
  });
});
