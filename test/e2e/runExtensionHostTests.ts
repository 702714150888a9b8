// `npm run test:ext`: runs the test/ext mocha suites inside code-server's real Node extension
// host (the @vscode/test-electron contract, driven through the workbench `payload` URL and
// window.codeAutomationExit), against a reference runtime started here. Echoes mocha's output
// and exits non-zero on failure or timeout.
import * as util from 'node:util';
import {
  checkBuilt,
  EXT_TEST_WORKSPACE_FILES,
  installFixtureExtensions,
  readMochaResult,
  startExtTestSetup,
  suiteExitCode,
} from './extHostSetup';
import { chromiumExecutable, launchChromium } from './harness/browser';
import { Cleanup, exitOnSignals, withTimeout } from './harness/cleanup';
import { startCodeServer } from './harness/codeServer';
import { ensureCodeServer } from './harness/install';
import { chromiumPid, formatMemory, treeMemory } from './harness/memory';
import { describeTarget } from './harness/paths';
import { addSecretsFromEnv, redact } from './harness/redact';
import { createRunFolder, writeWorkspaceSettings } from './harness/runFolder';
import { Screenshots } from './harness/screenshots';

const TIMEOUT_MS = Number(process.env.EXT_TEST_TIMEOUT_MS ?? 10 * 60_000);

// Workbench chatter that is not the suite's output (offline gallery, missing wasm, stacks; on
// VS Code 1.139 also its agent host, chat model picker and account policy, with no account here).
const NOISE =
  /^Creation of workbench contribution|ENOTFOUND|EAI_AGAIN|open-vsx|connection token|Creating a socket|builtin extensions cache|Service Worker|ChatSessionStore|vsda|^\s+at |^\[(AgentHost|AgentHost:remote|RemoteAgentHostProtocol|ChatModelSelection|AccountPolicyGate|reconnection-grace-time)\] /;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<number> {
  const started = Date.now();
  const cleanup = new Cleanup();
  exitOnSignals(cleanup, (s) => console.error(`\n${s}: stopping code-server, Chromium and the runtime`));
  try {
    checkBuilt();
    chromiumExecutable(); // a missing browser stops here, before minutes of code-server set-up
    ensureCodeServer();
    const run = createRunFolder({ name: 'ext-host', files: EXT_TEST_WORKSPACE_FILES });
    const keep = process.env.E2E_KEEP === '1';
    cleanup.add('run folder', () => (keep ? console.log(`run folder kept: ${run.root}`) : run.remove()));
    installFixtureExtensions(run.extensionsDir);

    const setup = await startExtTestSetup(run.root);
    cleanup.add('runtime', () => setup.runtime.close());
    writeWorkspaceSettings(run.workspace, setup.workspaceSettings);
    addSecretsFromEnv();

    // A key in the developer's own shell must not sign the suites in behind their back.
    const server = await startCodeServer(run, {
      env: { ...setup.env, AGENT_RUNTIME_API_KEY: undefined },
      developmentPayload: true,
    });
    cleanup.add('code-server', () => server.stop());
    const browser = await launchChromium(run.home);
    cleanup.add('chromium', () => browser.close());
    console.log(
      `[ext-host] ${describeTarget(server.target)} at ${server.origin} ready after ${seconds(Date.now() - started)}; runtime ${setup.runtime.baseUrl}`,
    );

    const shots = new Screenshots('ext-host');
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    let exit: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => (exit = resolve));
    // The workbench calls these when the suite's run() settles, and for each extension-host console line.
    await page.exposeFunction('codeAutomationExit', (code: number) => exit(Number(code)));
    let sawSummary = false;
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
      const line = redact(util.format(...(Array.isArray(args) ? args : [args])));
      if (NOISE.test(line)) {
        return;
      }
      if (/^\s*\d+ (passing|failing)\b/m.test(line)) {
        sawSummary = true;
      }
      (type === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
    });
    page.on('pageerror', (e) => console.error(`[page error] ${redact(String(e))}`));

    const payload = [
      ['extensionDevelopmentPath', server.remoteUri(setup.extensionDevelopmentPath)],
      ['extensionTestsPath', server.remoteUri(setup.extensionTestsPath)],
    ];
    await page.goto(server.workbenchUrl({ payload: JSON.stringify(payload) }), { timeout: 60_000 });

    let code: number;
    try {
      code = await withTimeout(exited, TIMEOUT_MS, 'the extension-host suite');
    } catch (err) {
      console.error(`[ext-host] ${err instanceof Error ? err.message : String(err)}`);
      await shots.take(page, 'timeout');
      code = 124;
    }

    const result = readMochaResult(setup.resultFile);
    if (result && !sawSummary) {
      // The console forwarding lost mocha's epilogue: print the counts from the result file.
      console.log(`\n  ${result.passes} passing`);
      if (result.failures) {
        console.log(`  ${result.failures} failing`);
      }
    }
    code = suiteExitCode('ext-host', code, result);
    await shots.take(page, 'end');
    console.log(
      `[ext-host] memory: ${formatMemory('code-server', treeMemory(server.process.pid))}; ${formatMemory('chromium', treeMemory(chromiumPid()))}`,
    );
    console.log(
      `[ext-host] ${describeTarget(server.target)}: exit code ${code} after ${seconds(Date.now() - started)}`,
    );
    return code;
  } finally {
    await cleanup.run();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`[ext-host] ${redact(err instanceof Error ? (err.stack ?? err.message) : String(err))}`);
    process.exit(1);
  },
);
