// The welcome-view context keys: combined over both views and written only on change.
import * as assert from 'node:assert/strict';
import { SidebarContextKeys } from '../../../src/views/contextKeys';

function recorder(): { writes: Array<[string, boolean]>; keys: SidebarContextKeys } {
  const writes: Array<[string, boolean]> = [];
  return { writes, keys: new SidebarContextKeys((k, v) => writes.push([k, v])) };
}

describe('views/contextKeys', () => {
  it('writes each key once and again only when its value changes', () => {
    const { writes, keys } = recorder();
    keys.report('files', { unreachable: false, empty: true });
    keys.report('files', { unreachable: false, empty: true });
    assert.deepEqual(writes, [
      ['agentRuntime.filesEmpty', true],
      ['agentRuntime.filesUnreachable', false],
      ['agentRuntime.unreachable', false],
    ]);
    keys.report('files', { unreachable: false, empty: false });
    assert.deepEqual(writes.at(-1), ['agentRuntime.filesEmpty', false]);
  });

  it('keeps "unreachable" true while either view could not reach the service', () => {
    const { writes, keys } = recorder();
    keys.report('files', { unreachable: true, empty: false });
    keys.report('tasks', { unreachable: false, empty: false });
    assert.ok(!writes.some(([k, v]) => k === 'agentRuntime.unreachable' && !v));
    keys.report('files', { unreachable: false, empty: false });
    assert.deepEqual(
      writes.filter(([k]) => k === 'agentRuntime.unreachable'),
      [
        ['agentRuntime.unreachable', true],
        ['agentRuntime.unreachable', false],
      ],
    );
  });

  it('clears a view so no welcome view of ours shows for it', () => {
    const { writes, keys } = recorder();
    keys.report('tasks', { unreachable: true, empty: true });
    keys.clear('tasks');
    assert.deepEqual(writes.slice(-3), [
      ['agentRuntime.tasksEmpty', false],
      ['agentRuntime.tasksUnreachable', false],
      ['agentRuntime.unreachable', false],
    ]);
  });

  it('says which view could not reach the service, so the other keeps its own welcome', () => {
    const { writes, keys } = recorder();
    keys.report('files', { unreachable: true, empty: false });
    keys.report('tasks', { unreachable: false, empty: true });
    const last = new Map(writes);
    assert.equal(last.get('agentRuntime.filesUnreachable'), true);
    assert.equal(last.get('agentRuntime.tasksUnreachable'), false);
    assert.equal(last.get('agentRuntime.tasksEmpty'), true);
    assert.equal(last.get('agentRuntime.unreachable'), true);
    keys.forgetUnreachable('files');
    assert.equal(new Map(writes).get('agentRuntime.filesUnreachable'), false);
    assert.equal(new Map(writes).get('agentRuntime.unreachable'), false);
  });
});
