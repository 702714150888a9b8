// The run panel's steering: the messages a webview may send (checked before the host acts), the
// approval card's data from the events, the cost, and a session against the reference runtime
// showing the card while the run waits and clearing it on the decision.
import * as assert from 'node:assert/strict';
import { costText, nextApproval } from '../../../src/runEvents/steeringInfo';
import type { WireEvent } from '../../../src/runEvents/wire';
import { parseWebviewMessage } from '../../../src/runPanel/protocol';
import { until } from './fakes';
import { SessionRig } from './sessionFixture';

const ev = (event: string, data: Record<string, unknown>): WireEvent => ({
  event,
  data: { sequence: 1, ...data },
});

describe('runPanel/steering', () => {
  it('accepts the steering messages only in their exact shapes', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'runAction', action: 'cancel', extra: 1 }), {
      type: 'runAction',
      action: 'cancel',
    });
    assert.deepEqual(parseWebviewMessage({ type: 'runAction', action: 'resume', sequence: 4 }), {
      type: 'runAction',
      action: 'resume',
    });
    assert.deepEqual(parseWebviewMessage({ type: 'runAction', action: 'fork', sequence: 12 }), {
      type: 'runAction',
      action: 'fork',
      sequence: 12,
    });
    for (const sequence of [0, -1, 1.5, '3', Number.MAX_SAFE_INTEGER + 1]) {
      assert.equal(parseWebviewMessage({ type: 'runAction', action: 'fork', sequence }), undefined);
    }
    for (const type of ['cancel', 'resume', 'review', 'fork']) {
      assert.equal(parseWebviewMessage({ type, sequence: 1 }), undefined, type);
    }
    assert.deepEqual(parseWebviewMessage({ type: 'decide', approvalId: 'apr_1', decision: 'deny' }), {
      type: 'decide',
      approvalId: 'apr_1',
      decision: 'deny',
    });
    assert.equal(parseWebviewMessage({ type: 'decide', approvalId: 'apr_1', decision: 'maybe' }), undefined);
    assert.equal(parseWebviewMessage({ type: 'decide', approvalId: '../x', decision: 'approve' }), undefined);
    assert.equal(parseWebviewMessage({ type: 'decide', decision: 'approve' }), undefined);
  });

  it('accepts "Send N Comments" only with the positive count the button showed; never names another run', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'sendComments', count: 3, runId: 'run_other' }), {
      type: 'sendComments',
      count: 3,
    });
    for (const count of [undefined, 0, -1, 1.5, '3', null, Number.NaN, 10_001, Number.MAX_SAFE_INTEGER + 1]) {
      assert.equal(parseWebviewMessage({ type: 'sendComments', count }), undefined, String(count));
    }
    assert.equal(parseWebviewMessage('sendComments'), undefined);
  });

  it('shows the last unresolved approval, with its arguments as JSON text, until resolved or ended', () => {
    const asked = nextApproval(undefined, [
      ev('approval.requested', {
        sequence: 4,
        approval_id: 'apr_1',
        tool: 'write_file',
        arguments: { path: '<img src=x onerror=alert(1)>' },
        reason: 'Writes',
        expires_at: '2030-01-01T00:00:00Z',
      }),
    ]);
    assert.equal(asked?.approvalId, 'apr_1');
    assert.equal(asked?.sequence, 4);
    assert.equal(asked?.argumentsJson, JSON.stringify({ path: '<img src=x onerror=alert(1)>' }, null, 2));
    assert.equal(nextApproval(asked, [ev('tool.called', { tool: 'x', step_id: 's' })]), asked);
    assert.equal(
      nextApproval(asked, [ev('approval.resolved', { approval_id: 'apr_other', status: 'approved' })]),
      asked,
    );
    assert.equal(nextApproval(asked, [ev('approval.resolved', { approval_id: 'apr_1', status: 'denied' })]), undefined);
    assert.equal(nextApproval(asked, [ev('run.cancelled', { status: 'cancelled' })]), undefined);
  });

  it('says when the card shows the arguments in part (a cut event, or past its cap), so Approve is not taken for the whole', () => {
    const whole = nextApproval(undefined, [
      ev('approval.requested', { approval_id: 'apr_1', tool: 't', arguments: { a: 1 } }),
    ]);
    assert.equal(whole?.argumentsCut, undefined);
    const cutEvent = {
      ...ev('approval.requested', { approval_id: 'apr_2', tool: 't', arguments: { a: '… (truncated, 99999 bytes)' } }),
      truncatedBytes: 99_999,
    };
    assert.equal(nextApproval(undefined, [cutEvent])?.argumentsCut, true);
    const long = nextApproval(undefined, [
      ev('approval.requested', { approval_id: 'apr_3', tool: 't', arguments: { a: 'x'.repeat(20_000) } }),
    ]);
    assert.equal(long?.argumentsCut, true);
    assert.ok(long?.argumentsJson.endsWith('\n…'));
  });

  it('reads the cost of a run record, and nothing when it is absent or odd', () => {
    assert.equal(costText({ usage: { cost: { amount: '0.12', currency: 'USD' } } }), '0.12 USD');
    assert.equal(costText({ usage: { cost: { amount: 3 } } }), '3');
    assert.equal(costText({ usage: { cost: 'x' } }), undefined);
    assert.equal(costText({}), undefined);
  });

  it('a session shows the card while the run waits and clears it when the decision is logged', async function () {
    this.timeout(30_000);
    const rig = new SessionRig();
    try {
      await rig.start();
      const { runtime } = rig;
      const runId = await runtime.createSyntheticRun({
        events: 3,
        terminal: 'completed',
        approval: { tool: 'write_file', arguments: { path: 'a.txt' } },
        cost: '0.50',
      });
      const { posted } = rig.watch(runId);
      const infos = () => posted.flatMap((m) => (m.type === 'info' || m.type === 'reset' ? [m.info] : []));
      await until(() => infos().some((i) => i.approval?.tool === 'write_file'), 'the approval card', 100);
      const card = infos().find((i) => i.approval)!.approval!;
      assert.equal(JSON.parse(card.argumentsJson).path, 'a.txt');
      runtime.decideApproval(card.approvalId, 'approve');
      await until(
        () => infos().at(-1)?.status === 'completed' && infos().at(-1)?.cost === '0.50 USD',
        'the end with its cost',
        100,
      );
      assert.equal(infos().at(-1)?.approval, null);
    } finally {
      await rig.stop();
    }
  });
});
