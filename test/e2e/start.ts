// `npm start`: the product at once. Starts the sandbox runtime and code-server with the packaged
// extension installed and pointed at the sandbox, prints the URL to open, and stops everything
// on Ctrl+C. The workspace is a git repository whose remote the sandbox serves (its project is
// ready to create: README "Working in a repository"). It opens the newest tested VS Code;
// `npm start -- --vscode 1.100` (or `floor`) the oldest it supports. `npm start -- --web` runs the
// extension's web build in code-server's web worker extension host (as in VS Code for the Web);
// sign in there with the sandbox key. The sandbox key reaches the extension only through AGENT_RUNTIME_API_KEY in
// code-server's environment: it is never written to settings or printed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startRuntime } from '../runtime';
import { SEEDED_APPROVAL_TIMEOUT_MS, seedSandbox } from '../runtime/sandboxSeed';
import { Cleanup, exitOnSignals } from './harness/cleanup';
import { installExtension, startCodeServer } from './harness/codeServer';
import { ensureCodeServer } from './harness/install';
import {
  cacheDir,
  describeTarget,
  extensionId,
  type VsCodeTarget,
  vscodeTarget,
  vscodeTargets,
  vsixPath,
} from './harness/paths';
import { freePort, isPortFree } from './harness/ports';
import { addSecret, redact } from './harness/redact';
import { createRunFolder } from './harness/runFolder';
import { makeServedRepository, serviceCloneOf } from './harness/servedRepository';

const SANDBOX_PORT = Number(process.env.AGENT_RUNTIME_SANDBOX_PORT ?? 8787);
const EDITOR_PORT = Number(process.env.AGENT_RUNTIME_EDITOR_PORT ?? 8080);
const PACE_MS = Number(process.env.AGENT_RUNTIME_SANDBOX_PACE_MS ?? 400);
// The same defaults as `npm run sandbox` (test/runtime/cli.ts), so both share .cache/sandbox-data.
const SANDBOX_KEY = process.env.AGENT_RUNTIME_SANDBOX_KEY || 'sandbox-key';
const SANDBOX_ADMIN_KEY = 'sandbox-admin-key';

/** The workspace repository's remote as the sandbox knows it (pushes go to a clone beside it). */
const WORKSPACE_REMOTE = 'https://example.com/you/try-agent-runtime.git';

const WORKSPACE_FILES: Record<string, string> = {
  'README.md':
    "# Try the Agent Runtime extension\n\nRight-click a file in the Explorer and choose **Upload and Attach to New Task...**,\nthen watch the run in the Agent Runtime sidebar.\n\nThis folder is a git repository: **Agent Runtime: Create Project for This Repository**, then\n**Agent Runtime: New Task in Project...** delegates work on it; the run's patch opens in\n**Review Changes** and **Apply to a New Branch...** writes it to a branch.\n",
  'notes/meeting.md':
    '# Weekly sync\n\n## Decisions\n- Ship the upload flow first.\n\n## Open questions\n- Which artifacts open in an editor?\n',
  'data/sales.csv': 'region,quarter,revenue\nnorth,Q1,120000\nsouth,Q1,98000\n',
};

/**
 * `--vscode 1.100`, `--vscode=floor`: the VS Code to open (default the newest; E2E_VSCODE too);
 * `--web`: the web build in the web worker extension host.
 */
function chosenTarget(argv: readonly string[]): { target: VsCodeTarget; web: boolean } {
  let which: string | undefined;
  let web = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--web') {
      web = true;
      continue;
    }
    if (argv[i] === '--vscode') {
      which = argv[++i];
    } else if (argv[i].startsWith('--vscode=')) {
      which = argv[i].slice('--vscode='.length);
    } else {
      throw new Error(`unknown argument "${argv[i]}" (npm start -- [--web] [--vscode newest|floor|<version>])`);
    }
    if (!which) {
      throw new Error('--vscode needs a version: newest, floor or e.g. 1.100');
    }
  }
  return { target: vscodeTarget(which), web };
}

async function preferredPort(port: number): Promise<number> {
  return (await isPortFree(port)) ? port : freePort();
}

async function main(): Promise<void> {
  const cleanup = new Cleanup();
  exitOnSignals(cleanup, (signal) => console.log(`\n${signal}: stopping code-server and the sandbox...`));
  addSecret(SANDBOX_KEY);
  addSecret(SANDBOX_ADMIN_KEY);
  try {
    const { target, web } = chosenTarget(process.argv.slice(2));
    ensureCodeServer(undefined, target);
    const dataDir = path.join(cacheDir(), 'sandbox-data');
    fs.mkdirSync(dataDir, { recursive: true });
    const seededMarker = path.join(dataDir, 'sandbox-seeded.json');
    if (!fs.existsSync(seededMarker)) {
      // Seed at full speed on a private port so the example task has already finished.
      // The seeded run waits for a person: its approval must not expire before anyone looks.
      const seeder = await startRuntime({
        dataDir,
        apiKeys: [SANDBOX_KEY],
        adminKey: SANDBOX_ADMIN_KEY,
        approvalTimeoutMs: SEEDED_APPROVAL_TIMEOUT_MS,
      });
      try {
        fs.writeFileSync(seededMarker, JSON.stringify(await seedSandbox(seeder.baseUrl, SANDBOX_KEY)));
      } finally {
        await seeder.close();
      }
    }
    const requestLog = fs.createWriteStream(path.join(cacheDir(), 'sandbox-requests.log'), { flags: 'a' });
    cleanup.add('request log', () => new Promise<void>((resolve) => requestLog.end(resolve)));
    // A kept session folder per VS Code version: the editor's state and the workspace survive restarts.
    const sessionRoot = path.join(cacheDir(), `start-${target.vscode}${web ? '-web' : ''}`);
    const runtime = await startRuntime({
      port: await preferredPort(SANDBOX_PORT),
      // A project of the workspace's repository reads its commits from the clone beside it.
      projectCheckouts: { [WORKSPACE_REMOTE]: serviceCloneOf(path.join(sessionRoot, 'workspace')) },
      dataDir,
      apiKeys: [SANDBOX_KEY],
      adminKey: SANDBOX_ADMIN_KEY,
      eventDelayMs: PACE_MS,
      approvalTimeoutMs: SEEDED_APPROVAL_TIMEOUT_MS,
      log: (line) => requestLog.write(`${redact(line)}\n`),
    });
    cleanup.add('sandbox runtime', () => runtime.close());

    const run = createRunFolder({
      root: sessionRoot,
      files: WORKSPACE_FILES,
      prepareWorkspace: (workspace) => makeServedRepository(workspace, WORKSPACE_REMOTE),
      settings: {
        'agentRuntime.baseUrl': runtime.baseUrl,
        'git.enabled': true,
        'git.openRepositoryInParentFolders': 'never',
        // The extension's `browser` entry in the web worker extension host, as in VS Code for the Web.
        ...(web ? { 'remote.extensionKind': { [extensionId()]: ['web'] } } : {}),
      },
    });
    const installed = await installExtension(run, vsixPath(), extensionId(), target);
    const server = await startCodeServer(run, {
      target,
      port: await preferredPort(EDITOR_PORT),
      env: { AGENT_RUNTIME_API_KEY: SANDBOX_KEY },
    });
    const onUnexpectedExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      console.error(`code-server stopped unexpectedly (${code ?? signal}); see ${server.logFile}`);
      void cleanup.run().finally(() => process.exit(1));
    };
    server.process.once('exit', onUnexpectedExit);
    cleanup.add('code-server', () => {
      server.process.off('exit', onUnexpectedExit);
      return server.stop();
    });

    console.log(
      [
        '',
        `Agent Runtime sandbox   ${runtime.baseUrl}   (data in ${path.relative(process.cwd(), dataDir) || dataDir}, events every ${PACE_MS} ms)`,
        web
          ? `${describeTarget(target)}   ${server.origin}   with ${installed} in the web worker (VS Code for the Web): sign in with the sandbox key (AGENT_RUNTIME_SANDBOX_KEY, else the sandbox's default)`
          : `${describeTarget(target)}   ${server.origin}   with ${installed}, signed in to the sandbox`,
        `  (also tested: ${vscodeTargets()
          .filter((t) => t.vscode !== target.vscode)
          .map((t) => `npm start -- --vscode ${t.vscode}`)
          .join(', ')})`,
        '',
        `  Open this in a browser:  ${server.workbenchUrl()}`,
        '',
        `Workspace: ${run.workspace} (a git repository; its remote ${WORKSPACE_REMOTE} is served by the sandbox)`,
        `Logs: ${server.logFile}, ${path.join(cacheDir(), 'sandbox-requests.log')}`,
        'Press Ctrl+C to stop everything.',
        '',
      ].join('\n'),
    );
  } catch (err) {
    await cleanup.run();
    throw err;
  }
}

main().catch((err: unknown) => {
  console.error(`npm start failed: ${redact(err instanceof Error ? err.message : String(err))}`);
  process.exit(1);
});
