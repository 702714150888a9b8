// The folder boundaries of src/ (scripts/layers.mjs) are kept by the linter: every folder of src/
// is in the table, the table has no circle, and ESLint with the project's own configuration
// reports an import that crosses a boundary (and lets an allowed one through).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

interface Layers {
  LAYERS: Record<string, string[]>;
  PURE_FOLDERS: string[];
}

// tsc compiles import() to require() under CommonJS; this keeps a real dynamic import for the .mjs.
const importModule = new Function('url', 'return import(url)') as (url: string) => Promise<unknown>;

async function layers(): Promise<Layers> {
  return (await importModule(pathToFileURL(path.join(ROOT, 'scripts', 'layers.mjs')).href)) as Layers;
}

async function lint(file: string, code: string): Promise<string[]> {
  // The probe files are not on disk, so no TypeScript project holds them: linted without types.
  const eslint = new ESLint({ cwd: ROOT, overrideConfig: tseslint.configs.disableTypeChecked });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('folder boundaries (scripts/layers.mjs, kept by ESLint)', function () {
  this.timeout(60_000);

  it('lists every folder of src/, and only folders that exist', async () => {
    const { LAYERS } = await layers();
    const folders = fs
      .readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    assert.deepEqual([...folders].sort(), Object.keys(LAYERS).sort());
    for (const [folder, allowed] of Object.entries(LAYERS)) {
      for (const other of allowed) {
        assert.ok(other in LAYERS, `${folder} allows ${other}, which is not a folder of src/`);
      }
    }
  });

  it('has no circle: the allowed imports order the folders from the bottom up', async () => {
    const { LAYERS } = await layers();
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (folder: string, trail: string[]): void => {
      if (state.get(folder) === 'done') {
        return;
      }
      assert.notEqual(state.get(folder), 'visiting', `circle: ${[...trail, folder].join(' -> ')}`);
      state.set(folder, 'visiting');
      for (const next of LAYERS[folder]) {
        visit(next, [...trail, folder]);
      }
      state.set(folder, 'done');
    };
    for (const folder of Object.keys(LAYERS)) {
      visit(folder, []);
    }
  });

  it('reports an import across a boundary, and lets an allowed one through', async () => {
    assert.deepEqual(
      await lint('src/api/probe.ts', "import { runOf } from '../commandSupport/nodeArgs';\nexport const x = runOf;\n"),
      [
        "'../commandSupport/nodeArgs' import is restricted from being used by a pattern. src/api/ may import only common, runEvents (scripts/layers.mjs, docs/ARCHITECTURE.md).",
      ],
    );
    assert.equal(
      (
        await lint(
          'src/api/network/probe.ts',
          "import type { RunStore } from '../../runs/runStore';\nexport type X = RunStore;\n",
        )
      ).length,
      1,
    );
    assert.equal(
      (
        await lint(
          'src/runLog/probe.ts',
          "import type { RunPanel } from '../runPanel/runPanel';\nexport type X = RunPanel;\n",
        )
      ).length,
      1,
    );
    assert.deepEqual(
      await lint('src/steering/probe.ts', "import { isRunId } from '../runEvents/ids';\nexport const x = isRunId;\n"),
      [],
    );
  });

  it('keeps vscode out of the plain folders and host code out of the webview', async () => {
    const { PURE_FOLDERS } = await layers();
    for (const folder of PURE_FOLDERS) {
      assert.equal(
        (await lint(`src/${folder}/probe.ts`, "import * as vscode from 'vscode';\nexport const x = vscode;\n")).length,
        1,
        folder,
      );
    }
    assert.equal(
      (
        await lint(
          'src/webview/probe.ts',
          "import type { RunSession } from '../runPanel/runSession';\nexport type X = RunSession;\n",
        )
      ).length,
      1,
    );
    assert.equal(
      (await lint('src/webview/probe.ts', "import { notify } from '../common/notify';\nexport const x = notify;\n"))
        .length,
      1,
    );
    assert.deepEqual(
      await lint(
        'src/webview/probe.ts',
        "import type { HostMessage } from '../runPanel/protocol';\nexport type X = HostMessage;\n",
      ),
      [],
    );
  });
});
