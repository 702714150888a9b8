// Before the first panel, LazyRunPanelManager.panels is one shared empty map, not a new one per
// read, and reading it loads nothing (the extension-host suites read it; runpanel.js stays unloaded).
import '../views/vscodeStub';
import * as assert from 'node:assert';
import { LazyRunPanelManager, type RunPanelDeps } from '../../../src/runPanel/runPanelLoader';

describe('LazyRunPanelManager.panels before the first panel', () => {
  it('is one empty map at every read, and reading it loads no manager', () => {
    const lazy = new LazyRunPanelManager({} as unknown as RunPanelDeps);
    const first = lazy.panels;
    assert.strictEqual(first.size, 0);
    assert.strictEqual(lazy.panels, first, 'the same map at the second read');
    assert.strictEqual(new LazyRunPanelManager({} as unknown as RunPanelDeps).panels, first, 'one shared empty map');
    assert.strictEqual((lazy as unknown as { manager?: unknown }).manager, undefined);
  });
});
