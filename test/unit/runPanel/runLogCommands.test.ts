// Export Run / Open Run Transcript act on the run they are given, else the selected run row or
// the active run panel (resolveRun); something given that names no run acts on nothing (it never
// falls back to whatever panel happens to be in front).
import '../views/vscodeStub';
import * as assert from 'node:assert/strict';
import type { ApiClient } from '../../../src/api/client';
import { Commands } from '../../../src/common/ids';
import { registerRunLogCommands } from '../../../src/runPanel/runLogCommands';
import type { RunPanel } from '../../../src/runPanel/runPanel';
import { commandDeps, prompts } from '../commandSupport/commandHarness';

const RUN_A = 'run_aaaaaaaa';
const RUN_B = 'run_bbbbbbbb';

describe('runPanel/runLogCommands: which run Export and Transcript act on', () => {
  const p = prompts();
  const errors: unknown[] = [];
  const exported: string[] = [];
  let selected: unknown[] = [];
  let activePanel: string | undefined;
  let unpatch = (): void => undefined;

  const panelOf = (runId: string) =>
    ({ runId, exportRun: async () => void exported.push(runId) }) as unknown as RunPanel;

  before(() => {
    unpatch = p.install();
    registerRunLogCommands(
      commandDeps({} as ApiClient, {
        trusted: () => false,
        errors,
        selection: () => selected,
        activePanel: () => activePanel,
      }),
      // As the manager: no run means the active panel's.
      {
        panelFor: (runId) =>
          runId !== undefined ? panelOf(runId) : activePanel === undefined ? undefined : panelOf(activePanel),
      },
    );
  });
  after(() => unpatch());
  beforeEach(() => {
    p.reset();
    errors.length = 0;
    exported.length = 0;
    selected = [];
    activePanel = undefined;
  });

  const exportRun = (arg?: unknown) => p.handlers.get(Commands.exportRun)!(arg) as Promise<void>;

  it('the run given, else the selected row, else the active panel', async () => {
    activePanel = RUN_B;
    await exportRun({ runId: RUN_A });
    await exportRun(undefined);
    selected = [{ run: { id: RUN_A, status: 'completed' } }];
    activePanel = undefined;
    await exportRun(undefined);
    assert.deepEqual(exported, [RUN_A, RUN_B, RUN_A]);
    assert.deepEqual(errors, []);
  });

  it("the run panel's title bar button (VS Code passes a webview-panel: URI) acts on the panel in front", async () => {
    activePanel = RUN_B;
    await exportRun({ scheme: 'webview-panel', authority: '', path: '/webview-panel/webview-1', query: '' });
    assert.deepEqual(exported, [RUN_B]);
    assert.deepEqual(errors, []);
  });

  it('something given that names no run exports nothing, with a message', async () => {
    activePanel = RUN_B;
    for (const arg of ['not a run', { runId: '../x' }, 42]) {
      await exportRun(arg);
    }
    assert.deepEqual(exported, [], 'a bad argument fell back to the panel in front');
    assert.equal(errors.length, 3);
    assert.match(String(errors[0]), /not one/);
  });
});
