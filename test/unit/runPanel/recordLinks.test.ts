// The run panel's record links, host side: the messages a page may send for them are
// checked as ids, and a link opens only a record that the event (read again) or the approval card
// shown actually names.
import * as assert from 'node:assert/strict';
import { Commands } from '../../../src/common/ids';
import { MAX_RECORD_LINKS, recordLinks, unlinkedCount } from '../../../src/runEvents/recordLinks';
import type { ApprovalCardView, WireEvent } from '../../../src/runEvents/wire';
import { parseWebviewMessage } from '../../../src/runPanel/protocol';
import { approvalToolCommand, recordLinkCommand } from '../../../src/runPanel/recordLinkTarget';

const ev = (event: string, sequence: number, fields: Record<string, unknown>): WireEvent => ({
  event,
  data: { sequence, ...fields },
});

const card: ApprovalCardView = {
  approvalId: 'apr_1',
  sequence: 7,
  tool: 'write_file',
  argumentsJson: '{}',
};

describe('runPanel/record links', () => {
  it('accepts openRecord and openTool only with ids that are ids', () => {
    assert.deepEqual(
      parseWebviewMessage({ type: 'openRecord', sequence: 4, record: 'invocation', id: 'inv_1', x: 1 }),
      {
        type: 'openRecord',
        sequence: 4,
        record: 'invocation',
        id: 'inv_1',
      },
    );
    assert.deepEqual(parseWebviewMessage({ type: 'openRecord', sequence: 4, record: 'memory', id: 'mem_1' }), {
      type: 'openRecord',
      sequence: 4,
      record: 'memory',
      id: 'mem_1',
    });
    for (const id of ['../mem_1', 'mem_1/x', 'mem 1', 'mem_\u202e1', '', 'a'.repeat(201), 'mem_1?x', 'command:x', 7]) {
      assert.equal(
        parseWebviewMessage({ type: 'openRecord', sequence: 4, record: 'memory', id }),
        undefined,
        String(id),
      );
    }
    for (const sequence of [0, -1, 1.5, '4', Number.MAX_SAFE_INTEGER + 1]) {
      assert.equal(parseWebviewMessage({ type: 'openRecord', sequence, record: 'memory', id: 'mem_1' }), undefined);
    }
    for (const record of ['tool', 'file', undefined]) {
      assert.equal(parseWebviewMessage({ type: 'openRecord', sequence: 4, record, id: 'mem_1' }), undefined);
    }
    assert.deepEqual(parseWebviewMessage({ type: 'openTool', approvalId: 'apr_1', tool: 'x' }), {
      type: 'openTool',
      approvalId: 'apr_1',
    });
    assert.equal(parseWebviewMessage({ type: 'openTool', approvalId: '../apr' }), undefined);
    assert.equal(parseWebviewMessage({ type: 'openTool', tool: 'write_file' }), undefined);
  });

  it('offers the records an event names, ids only, without repeats, bounded', () => {
    assert.deepEqual(recordLinks(ev('tool.called', 3, { tool: 'search', invocation_id: 'inv_3' })), [
      { record: 'invocation', id: 'inv_3' },
    ]);
    assert.deepEqual(recordLinks(ev('tool.called', 3, { tool: 'search' })), []);
    assert.deepEqual(recordLinks(ev('tool.called', 3, { invocation_id: 'inv_3"><img src=x>' })), []);
    assert.deepEqual(recordLinks(ev('memory.written', 4, { memory_id: 'mem_4' })), [{ record: 'memory', id: 'mem_4' }]);
    assert.deepEqual(recordLinks(ev('memory.written', 4, { memory_ids: ['mem_4'] })), []);
    assert.deepEqual(
      recordLinks(ev('memory.recalled', 5, { memory_ids: ['mem_a', '../etc', 'mem_a', 42, 'mem_\u202eb', 'mem_c'] })),
      [
        { record: 'memory', id: 'mem_a' },
        { record: 'memory', id: 'mem_c' },
      ],
    );
    // Another event carrying the same fields offers nothing.
    assert.deepEqual(recordLinks(ev('observation.recorded', 6, { invocation_id: 'inv_6', memory_id: 'mem_6' })), []);
    const many = Array.from({ length: 25 }, (_, i) => `mem_${i}`);
    const recalled = ev('memory.recalled', 8, { memory_ids: [...many, ...many] });
    assert.equal(recordLinks(recalled).length, MAX_RECORD_LINKS);
    assert.equal(unlinkedCount(recalled), 25 - MAX_RECORD_LINKS);
    assert.deepEqual(recordLinks(ev('memory.recalled', 9, { memory_ids: 'mem_1' })), []);
  });

  it('opens the invocation record or memory entry only when the event read again names it', () => {
    const called = ev('tool.called', 3, { tool: 'search', invocation_id: 'inv_3' });
    assert.deepEqual(
      recordLinkCommand({ type: 'openRecord', sequence: 3, record: 'invocation', id: 'inv_3' }, called),
      {
        command: Commands.openToolInvocation,
        arg: { invocationId: 'inv_3' },
      },
    );
    // Another id, another kind, another event, or no event at all: nothing.
    assert.equal(
      recordLinkCommand({ type: 'openRecord', sequence: 3, record: 'invocation', id: 'inv_9' }, called),
      undefined,
    );
    assert.equal(
      recordLinkCommand({ type: 'openRecord', sequence: 3, record: 'memory', id: 'inv_3' }, called),
      undefined,
    );
    assert.equal(
      recordLinkCommand({ type: 'openRecord', sequence: 4, record: 'invocation', id: 'inv_3' }, called),
      undefined,
    );
    assert.equal(
      recordLinkCommand({ type: 'openRecord', sequence: 3, record: 'invocation', id: 'inv_3' }, undefined),
      undefined,
    );

    const recalled = ev('memory.recalled', 5, { memory_ids: ['mem_a', 'mem_b'] });
    assert.deepEqual(recordLinkCommand({ type: 'openRecord', sequence: 5, record: 'memory', id: 'mem_b' }, recalled), {
      command: Commands.openMemory,
      arg: { id: 'mem_b' },
    });
    assert.equal(
      recordLinkCommand({ type: 'openRecord', sequence: 5, record: 'memory', id: 'mem_c' }, recalled),
      undefined,
    );
    const written = ev('memory.written', 6, { memory_id: 'mem_w' });
    assert.deepEqual(recordLinkCommand({ type: 'openRecord', sequence: 6, record: 'memory', id: 'mem_w' }, written), {
      command: Commands.openMemory,
      arg: { id: 'mem_w' },
    });
  });

  it("opens the tool of the approval card shown, by the card's tool name, and nothing for another approval", () => {
    assert.deepEqual(approvalToolCommand({ type: 'openTool', approvalId: 'apr_1' }, card), {
      command: Commands.openTool,
      arg: { name: 'write_file' },
    });
    assert.equal(approvalToolCommand({ type: 'openTool', approvalId: 'apr_2' }, card), undefined);
    assert.equal(approvalToolCommand({ type: 'openTool', approvalId: 'apr_1' }, undefined), undefined);
    assert.equal(approvalToolCommand({ type: 'openTool', approvalId: 'apr_1' }, { ...card, tool: '' }), undefined);
  });
});
