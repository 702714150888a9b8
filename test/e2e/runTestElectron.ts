// `npm run test:electron`: the same test/ext suites under @vscode/test-electron, in a desktop
// VS Code. Runs only when one is given (VSCODE_EXECUTABLE) or a download is asked for
// (VSCODE_TEST_DOWNLOAD=1, from update.code.visualstudio.com); otherwise it says it skipped and
// why, exits 0, and prints no test counts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import {
  checkBuilt,
  EXT_TEST_WORKSPACE_FILES,
  installFixtureExtensions,
  readMochaResult,
  startExtTestSetup,
  suiteExitCode,
} from './extHostSetup';
import { Cleanup, exitOnSignals } from './harness/cleanup';
import { cacheDir } from './harness/paths';
import { redact } from './harness/redact';
import { createRunFolder, writeWorkspaceSettings } from './harness/runFolder';

const VSCODE_VERSION = process.env.VSCODE_TEST_VERSION ?? '1.100.3';

function skip(reason: string): number {
  console.log(
    [
      `SKIPPED: the @vscode/test-electron run did not happen: ${reason}.`,
      '  No tests ran here, none passed or failed. To run it, either',
      '    VSCODE_EXECUTABLE=/path/to/code npm run test:electron   (a desktop VS Code you have), or',
      `    VSCODE_TEST_DOWNLOAD=1 npm run test:electron            (downloads VS Code ${VSCODE_VERSION}; needs internet)`,
      '  On Linux without a display, prefix it with `xvfb-run -a`.',
      '  The same suites run inside code-server with `npm run test:ext`.',
    ].join('\n'),
  );
  return 0;
}

async function main(): Promise<number> {
  const executable = process.env.VSCODE_EXECUTABLE;
  const download = process.env.VSCODE_TEST_DOWNLOAD === '1';
  if (!executable && !download) {
    return skip(
      'no desktop VS Code is available (VSCODE_EXECUTABLE is not set) and downloading one was not asked for (VSCODE_TEST_DOWNLOAD=1); this machine is offline apart from the npm registry and apt',
    );
  }
  if (executable && !fs.existsSync(executable)) {
    throw new Error(`VSCODE_EXECUTABLE=${executable} does not exist`);
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    throw new Error('a desktop VS Code needs a display: run it as `xvfb-run -a npm run test:electron`');
  }
  checkBuilt();

  const cleanup = new Cleanup();
  exitOnSignals(cleanup);
  try {
    const run = createRunFolder({ name: 'electron', files: EXT_TEST_WORKSPACE_FILES });
    cleanup.add('run folder', () => run.remove());
    const setup = await startExtTestSetup(run.root);
    cleanup.add('runtime', () => setup.runtime.close());
    writeWorkspaceSettings(run.workspace, setup.workspaceSettings);

    let code: number;
    try {
      code = await runTests({
        ...(executable
          ? { vscodeExecutablePath: executable }
          : { version: VSCODE_VERSION, cachePath: path.join(cacheDir(), 'vscode-test') }),
        // --disable-extensions below leaves installed ones off: the fixtures load as development extensions.
        extensionDevelopmentPath: [
          setup.extensionDevelopmentPath,
          ...installFixtureExtensions(path.join(run.root, 'fixture-extensions')),
        ],
        extensionTestsPath: setup.extensionTestsPath,
        // A key in the developer's own shell must not sign the suites in behind their back.
        extensionTestsEnv: { ...setup.env, HOME: run.home, AGENT_RUNTIME_API_KEY: undefined },
        launchArgs: [
          run.workspace,
          '--disable-extensions',
          '--disable-workspace-trust',
          '--skip-welcome',
          '--skip-release-notes',
          '--disable-gpu',
          `--user-data-dir=${run.userDataDir}`,
          `--extensions-dir=${run.extensionsDir}`,
        ],
      });
    } catch (err) {
      // runTests rejects when VS Code exits non-zero (a failing test, or a crash).
      console.error(redact(err instanceof Error ? err.message : String(err)));
      code = 1;
    }
    code = suiteExitCode('test-electron', code, readMochaResult(setup.resultFile));
    console.log(`[test-electron] VS Code ${executable ?? VSCODE_VERSION} exited; exit code ${code} (${os.platform()})`);
    return code;
  } finally {
    await cleanup.run();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`[test-electron] ${redact(err instanceof Error ? err.message : String(err))}`);
    process.exit(1);
  },
);
