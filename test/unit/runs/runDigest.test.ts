// A run in short, for the tools, the chat and the API: steps planned and done, the cost, a
// waiting approval, the latest events as bounded lines; read against the reference runtime.
import * as assert from 'node:assert/strict';
import { ApiClient } from '../../../src/api/client';
import { digestMarkdown } from '../../../src/chat/chatText';
import { untranslated } from '../../../src/common/translate';
import { readRunDigest } from '../../../src/runs/readRunDigest';
import { DIGEST_LATEST, LINE_CHARS, RunDigestBuilder, STEP_IDS_KEPT } from '../../../src/runs/runDigest';
import { type RuntimeHandle, startRuntime } from '../../runtime';

const ev = (sequence: number, event: string, data: Record<string, unknown> = {}) => ({
  event,
  data: { sequence, ...data },
});

describe('runs/runDigest', () => {
  it('counts planned and done steps once each, keeps the newest events and the cost', () => {
    const b = new RunDigestBuilder({
      id: 'run_1',
      task_id: 'task_1',
      status: 'running',
      usage: { cost: { amount: '0.10', currency: 'USD' } },
    });
    b.add(ev(1, 'plan.created', { steps: 3, strategy: 'plan' }));
    b.add(ev(2, 'step.started', { step_id: 's1', title: 'Read the notes' }));
    b.add(ev(3, 'step.completed', { step_id: 's1' }));
    b.add(ev(4, 'step.completed', { step_id: 's1' }));
    b.add(ev(5, 'usage.updated', { cost: { amount: '0.25', currency: 'USD' } }));
    for (let s = 6; s < 20; s++) {
      b.add(ev(s, 'tool.called', { tool: `tool_${s}` }));
    }
    const d = b.digest();
    assert.equal(d.stepsPlanned, 3);
    assert.equal(d.stepsDone, 1);
    assert.equal(d.cost, '0.25 USD');
    assert.equal(d.eventsRead, 19);
    assert.equal(d.lastSequence, 19);
    assert.equal(d.latest.length, DIGEST_LATEST);
    assert.deepEqual(d.latest.at(-1), { sequence: 19, event: 'tool.called', text: 'tool_19' });
    assert.equal(d.taskId, 'task_1');
  });

  it('tells a waiting approval until it is resolved or the run ends, and takes the end status', () => {
    const b = new RunDigestBuilder({ id: 'run_1', status: 'running' });
    b.add(ev(1, 'approval.requested', { approval_id: 'apr_1', tool: 'write_file' }));
    assert.deepEqual(b.digest().waitingApproval, { approvalId: 'apr_1', tool: 'write_file' });
    b.add(ev(2, 'approval.resolved', { approval_id: 'apr_1', status: 'approved' }));
    assert.equal(b.digest().waitingApproval, undefined);
    b.add(ev(3, 'approval.requested', { approval_id: 'apr_2', tool: 'x' }));
    b.add(ev(4, 'run.failed', { error: { message: 'boom' } }));
    const d = b.digest();
    assert.equal(d.waitingApproval, undefined);
    assert.equal(d.status, 'failed');
    assert.equal(d.error, 'boom');
  });

  it('keeps at most STEP_IDS_KEPT step ids: 300,000 distinct steps are counted, the rest unchecked, and it says so', () => {
    const b = new RunDigestBuilder({ id: 'run_1', status: 'running' });
    const steps = 300_000;
    for (let s = 1; s <= steps; s++) {
      b.add(ev(s, 'step.completed', { step_id: `step_${s}` }));
    }
    // A replay of a remembered step is still counted once.
    b.add(ev(steps + 1, 'step.completed', { step_id: 'step_1' }));
    const kept = (b as unknown as { done: Set<string> }).done;
    assert.equal(kept.size, STEP_IDS_KEPT, 'the ids kept are bounded');
    const d = b.digest();
    assert.equal(d.stepsDone, steps);
    assert.equal(d.stepsUnchecked, steps - STEP_IDS_KEPT);
    assert.match(digestMarkdown(d, untranslated), /The last 290000 steps were counted without checking for repeats/);
    assert.equal(new RunDigestBuilder({ id: 'run_1' }).digest().stepsUnchecked, undefined);
  });

  it('cuts every server text to a bound', () => {
    const huge = 'x'.repeat(1_000_000);
    const b = new RunDigestBuilder({ id: 'run_1', status: huge, error: { message: huge } });
    b.add(ev(1, 'step.started', { title: huge }));
    b.add(ev(2, huge, { summary: huge }));
    const d = b.digest();
    for (const text of [d.status, d.error, ...d.latest.flatMap((l) => [l.text, l.event])]) {
      assert.ok((text ?? '').length <= LINE_CHARS, String(text?.length));
    }
  });

  describe('read against the reference runtime', () => {
    let rt: RuntimeHandle;
    let client: ApiClient;
    before(async () => {
      rt = await startRuntime({ eventDelayMs: 0 });
      client = new ApiClient({ baseUrl: rt.baseUrl, getApiKey: async () => rt.apiKey });
    });
    after(async () => {
      await client.dispose();
      await rt.close();
    });

    it('reads a finished run to its end', async () => {
      const runId = await rt.createSyntheticRun({ events: 13, terminal: 'completed', cost: '1.50' });
      const d = await readRunDigest(client, runId);
      assert.equal(d.status, 'completed');
      assert.equal(d.stepsPlanned, 3);
      assert.equal(d.stepsDone, 3);
      assert.equal(d.eventsRead, 14, 'every event and the end');
      assert.equal(d.partial, undefined);
      assert.equal(d.cost, '1.50 USD');
      assert.equal(d.latest.at(-1)?.event, 'run.completed');
    });

    it('reads a run still going for a window and says the digest is partial', async () => {
      const runId = await rt.createSyntheticRun({ events: 5, terminal: null });
      // How much of the history the window sees is up to the machine; that it ends, and says so, is not.
      const d = await readRunDigest(client, runId, { liveWindowMs: 300 });
      assert.equal(d.partial, 'live');
      assert.ok(d.lastSequence <= 5);
    });

    it('stops at the cap of events', async () => {
      const runId = await rt.createSyntheticRun({ events: 50, terminal: 'completed' });
      const d = await readRunDigest(client, runId, { maxEvents: 10 });
      assert.equal(d.eventsRead, 10);
      assert.equal(d.partial, 'stopped');
    });

    it('rejects for a run the service does not have', async () => {
      await assert.rejects(readRunDigest(client, 'run_missing'), (err: { kind?: string }) => err.kind === 'not_found');
    });
  });
});
