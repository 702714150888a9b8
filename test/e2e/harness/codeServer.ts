// Starts code-server for one run folder (detached, in its own process group, on a free loopback
// port), installs a .vsix into it, and stops it by process group.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withTimeout } from './cleanup';
import { ensureCodeServer } from './install';
import { registerEmptyLanguagePack } from './languagePack';
import { codeServerNode, type VsCodeTarget, vscodeTarget } from './paths';
import { freePort } from './ports';
import { killProcessGroupSync, stopProcessGroup } from './processGroup';
import { redact } from './redact';
import { type RunFolder } from './runFolder';

export interface CodeServerOptions {
  /** Extra environment for code-server and its extension host (e.g. AGENT_RUNTIME_API_KEY); never logged. */
  env?: Record<string, string | undefined>;
  port?: number;
  /** Echo code-server's output to the console (redacted) as well as to its log file. */
  echo?: boolean;
  startTimeoutMs?: number;
  /** `--locale`: the display language (an empty language pack is registered so that it takes effect). */
  locale?: string;
  /** Which VS Code (default: the one E2E_VSCODE names, else the newest). */
  target?: VsCodeTarget;
  /**
   * Honour the workbench URL's `payload` (extensionDevelopmentPath, extensionTestsPath): built
   * VS Code 1.139 reads it only with the smoke-test driver on (1.100 read it always).
   */
  developmentPayload?: boolean;
}

export interface CodeServer {
  /** The VS Code this code-server serves. */
  target: VsCodeTarget;
  port: number;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** The workbench URL opening the run folder's workspace. */
  workbenchUrl(query?: Record<string, string>): string;
  /** vscode-remote://127.0.0.1:PORT/abs/path: how the browser workbench names a server-side path. */
  remoteUri(absPath: string): string;
  logFile: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * `--enable-smoke-test-driver` for the VS Code server, through code-server's VSCODE_OPTIONS (its
 * `--vscode-option` passthrough, which 4.139 has); code-server 4.100 has no passthrough and
 * ignores the variable, and its VS Code honours the payload without the driver anyway.
 */
const DEVELOPMENT_PAYLOAD_ENV = { VSCODE_OPTIONS: 'enable-smoke-test-driver' };

function commonArgs(run: RunFolder): string[] {
  return ['--config', run.configFile, '--user-data-dir', run.userDataDir, '--extensions-dir', run.extensionsDir];
}

function childEnv(run: RunFolder, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  // Only the caller's overrides and the run folder's HOME/XDG differ from ours.
  const env: NodeJS.ProcessEnv = { ...process.env, ...run.env };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) {
      delete env[key];
    } else {
      env[key] = value;
    }
  }
  // A code-server started from inside another one would otherwise talk to its parent.
  delete env.VSCODE_IPC_HOOK_CLI;
  return env;
}

function runCli(run: RunFolder, args: string[], target: VsCodeTarget): Promise<string> {
  const entry = ensureCodeServer(undefined, target);
  return new Promise((resolve, reject) => {
    execFile(
      codeServerNode(target),
      [entry, ...commonArgs(run), ...args],
      { env: childEnv(run), encoding: 'utf8', timeout: 120_000 },
      (err, stdout, stderr) => {
        if (err) {
          reject(
            new Error(`code-server ${args.join(' ')} failed: ${redact(String(stderr || err.message)).slice(-2000)}`),
          );
        } else {
          resolve(stdout);
        }
      },
    );
  });
}

/** Installs a .vsix into the run folder's extensions folder and checks that it is listed. */
export async function installExtension(
  run: RunFolder,
  vsix: string,
  expectedId: string,
  target: VsCodeTarget = vscodeTarget(),
): Promise<string> {
  if (!fs.existsSync(vsix)) {
    throw new Error(`${vsix} does not exist: package the extension first (npm run package)`);
  }
  await runCli(run, ['--install-extension', vsix, '--force'], target);
  const listed = await runCli(run, ['--list-extensions', '--show-versions'], target);
  const line = listed.split('\n').find((l) => l.toLowerCase().startsWith(`${expectedId.toLowerCase()}@`));
  if (!line) {
    throw new Error(`${expectedId} is not listed after installing ${path.basename(vsix)}:\n${listed}`);
  }
  return line.trim();
}

/** Starts code-server on the run folder's workspace and resolves once it listens. */
export async function startCodeServer(run: RunFolder, options: CodeServerOptions = {}): Promise<CodeServer> {
  const target = options.target ?? vscodeTarget();
  const entry = ensureCodeServer(undefined, target);
  const port = options.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const logFile = path.join(run.root, 'code-server.log');
  if (options.locale && !options.locale.startsWith('en')) {
    registerEmptyLanguagePack(run.userDataDir, options.locale);
  }
  const log = fs.createWriteStream(logFile);
  const child = spawn(
    codeServerNode(target),
    [
      entry,
      ...commonArgs(run),
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      ...(options.locale ? ['--locale', options.locale] : []),
      run.workspace,
    ],
    {
      env: childEnv(run, { ...(options.developmentPayload ? DEVELOPMENT_PAYLOAD_ENV : {}), ...options.env }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  // If the runner itself dies abruptly, do not leave code-server behind.
  const onExit = (): void => killProcessGroupSync(child);
  process.on('exit', onExit);

  let output = '';
  const listening = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      const text = redact(chunk.toString('utf8'));
      // The pipes can still deliver output after the process group is stopped and the log ended
      // ('exit' comes before the stdio streams close): a write then would crash the whole run.
      if (!log.writableEnded) {
        log.write(text);
      }
      if (options.echo) {
        process.stdout.write(text.replace(/^/gm, '[code-server] '));
      }
      if (output.length < 100_000) {
        output += text;
      }
      if (output.includes('HTTP server listening')) {
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) =>
      reject(new Error(`code-server exited (${code ?? signal}) before listening:\n${output.slice(-3000)}`)),
    );
    child.once('error', reject);
  });

  let stopped: Promise<void> | undefined;
  const server: CodeServer = {
    target,
    port,
    origin,
    logFile,
    process: child,
    remoteUri: (absPath) =>
      `vscode-remote://127.0.0.1:${port}${absPath.split(path.sep).map(encodeURIComponent).join('/')}`,
    workbenchUrl: (query = {}) => {
      const params = new URLSearchParams({ folder: run.workspace, ...query });
      return `${origin}/?${params.toString()}`;
    },
    stop: () =>
      (stopped ??= (async () => {
        const closed = new Promise<void>((resolve) =>
          child.exitCode !== null && child.stdout?.closed !== false ? resolve() : child.once('close', () => resolve()),
        );
        await stopProcessGroup(child);
        process.off('exit', onExit);
        // Let the pipes drain into the log first (bounded: a grandchild may hold them open).
        await Promise.race([closed, new Promise((r) => setTimeout(r, 2000))]);
        log.end();
      })()),
  };
  try {
    await withTimeout(listening, options.startTimeoutMs ?? 60_000, 'waiting for code-server to listen');
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}
