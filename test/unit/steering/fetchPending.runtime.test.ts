// Loading the pending approvals (fetchPendingApprovals) over HTTP against the reference runtime:
// it ends on a server handing out a fresh cursor for ever with pages of records that are not
// pending (every record read counts toward the cap), and what it returns is
// each pending approval once, never a junk record (item 9). Also the list itself de-duplicates
// whatever it is given, so Needs You never has two rows of one id and announces once.
import * as assert from 'node:assert/strict';
import { DEFAULT_MAX_PAGES } from '../../../src/api/pagination';
import type { ApprovalRecord } from '../../../src/api/types';
import {
  fetchPendingApprovals,
  isPendingApproval,
  PendingApprovals,
  type PendingChange,
} from '../../../src/steering/pendingApprovals';
import { CapturingLogger, waitFor } from '../api/fixtures';
import { walkedRuntime } from '../api/walkedRuntime';

describe('approvals/fetchPendingApprovals (reference runtime)', () => {
  const rt = walkedRuntime((line) => line.startsWith('GET /v1/approvals '));

  async function waitingApproval(): Promise<string> {
    const file = await rt.ctx.client.uploadBytes(Buffer.from('# Notes\n\none\n'), {
      filename: 'notes.md',
      purpose: 'task_input',
    });
    const task = await rt.ctx.client.createTask({
      objective: 'Tidy up, ask before writing',
      attachments: [{ type: 'document', fileId: file.id }],
    });
    let id = '';
    await waitFor(() => {
      id = rt.ctx.runtime.listApprovals({ runId: String(task.run_id), status: 'pending' })[0]?.id ?? '';
      return id !== '';
    }, 'the run to ask for an approval');
    return id;
  }

  it('ends on a fresh cursor for ever with pages of records that are not pending, and says it cut', async () => {
    rt.ctx.runtime.setHostile({ listJunk: true, freshCursor: '/v1/approvals' });
    const loaded = await fetchPendingApprovals(rt.ctx.client, rt.signal);
    assert.deepEqual(loaded.approvals, [], 'junk records are never pending');
    assert.equal(loaded.cut, true);
    assert.ok(rt.requests() <= DEFAULT_MAX_PAGES, `${rt.requests()} list requests`);
  });

  it('returns each pending approval once and no junk record (status {value: "running"}, a number, no apr_ id)', async () => {
    const id = await waitingApproval();
    rt.ctx.runtime.setHostile({ listJunk: true }); // a duplicate of the first item, statuses 7 and {value}, ids that are not apr_
    const loaded = await fetchPendingApprovals(rt.ctx.client, rt.signal);
    assert.deepEqual(
      loaded.approvals.map((a) => a.id),
      [id],
    );
    assert.equal(loaded.cut, false);
    assert.equal(isPendingApproval({ id: 'apr_x', status: { value: 'pending' } }), false);
    assert.equal(isPendingApproval({ id: 'run_x', status: 'pending' }), false);
    assert.equal(isPendingApproval({ id: 'apr_x', status: 'pending' }), true);
  });

  it('the list keeps one row per id and announces an approval once, whatever it is given', async () => {
    const a: ApprovalRecord = { id: 'apr_a', status: 'pending', tool: 'write_file' };
    const b: ApprovalRecord = { id: 'apr_b', status: 'pending', tool: 'write_file' };
    const answers = [[a], [a, b, b, a]];
    const list = new PendingApprovals({
      fetchPending: async () => ({ approvals: answers.length > 1 ? answers.shift()! : answers[0], cut: false }),
      watching: () => false,
      log: new CapturingLogger(),
      schedule: () => ({ cancel: () => undefined }),
    });
    const changes: PendingChange[] = [];
    list.onDidChange((c) => changes.push(c));
    await list.refresh();
    await list.refresh();
    assert.deepEqual(
      list.pending.map((x) => x.id),
      ['apr_a', 'apr_b'],
    );
    assert.deepEqual(
      changes.at(-1)?.added.map((x) => x.id),
      ['apr_b'],
      'announced once',
    );
    list.dispose();
  });
});
