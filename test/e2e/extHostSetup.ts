// What both extension-host runners share: the reference runtime the suites talk to, the
// environment that hands its address and keys to the suites, the workspace they open, and
// the checks that the extension and the compiled suites exist.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type RuntimeHandle, startRuntime } from '../runtime';
import { compiledTestDir, repoRoot } from './harness/paths';
import { addSecret, redact } from './harness/redact';

/** Files the suites find in their workspace folder. */
export const EXT_TEST_WORKSPACE_FILES: Record<string, string> = {
  'README.md': '# Extension-host test workspace\n',
  'notes.txt': 'plain text for upload tests\n',
  'data/sample.csv': 'id,name\n1,alpha\n2,beta\n',
};

export interface ExtTestSetup {
  runtime: RuntimeHandle;
  /** Environment for the extension host (read by test/ext suites). */
  env: Record<string, string>;
  /** Workspace settings pointing the extension at the runtime. */
  workspaceSettings: Record<string, unknown>;
  resultFile: string;
  extensionDevelopmentPath: string;
  extensionTestsPath: string;
}

/** The suite entry next to this runner's compiled folder (out/test/ext/index.js or a scratch outDir). */
export function extensionTestsPath(): string {
  return path.join(compiledTestDir, 'ext', 'index.js');
}

export function checkBuilt(): void {
  const root = repoRoot();
  const bundle = path.join(root, 'dist', 'extension.js');
  if (!fs.existsSync(bundle)) {
    throw new Error(`${bundle} is missing: build the extension first (npm run compile)`);
  }
  if (!fs.existsSync(extensionTestsPath())) {
    throw new Error(`${extensionTestsPath()} is missing: compile the tests first (npm run compile:tests)`);
  }
}

/** Starts the runtime, logging (redacted) into `dir`, where the suite's result file also goes. */
export async function startExtTestSetup(dir: string): Promise<ExtTestSetup> {
  const log = fs.createWriteStream(path.join(dir, 'runtime.log'), { flags: 'a' });
  const runtime = await startRuntime({ log: (line) => log.write(`${redact(line)}\n`) });
  addSecret(runtime.apiKey);
  addSecret(runtime.adminKey);
  const resultFile = path.join(dir, 'mocha-result.json');
  return {
    runtime,
    env: {
      AGENT_RUNTIME_TEST_BASE_URL: runtime.baseUrl,
      AGENT_RUNTIME_TEST_API_KEY: runtime.apiKey,
      AGENT_RUNTIME_TEST_ADMIN_KEY: runtime.adminKey,
      AGENT_RUNTIME_TEST_RESULT_FILE: resultFile,
      ...(process.env.EXT_TEST_GREP ? { AGENT_RUNTIME_TEST_GREP: process.env.EXT_TEST_GREP } : {}),
    },
    workspaceSettings: { 'agentRuntime.baseUrl': runtime.baseUrl },
    resultFile,
    extensionDevelopmentPath: repoRoot(),
    extensionTestsPath: extensionTestsPath(),
  };
}

/**
 * Extensions the suites use besides ours (test/ext/fixtures/<name>/: a package.json, and the
 * extension.js compiled beside the suites), put into the test window's extensions folder before
 * it starts: on its first start the folder's extensions are found without an install (VS Code
 * writes its extensions.json then). The web workbench takes one extensionDevelopmentPath only;
 * the desktop runner passes the folders made here as more of them. Returns those folders.
 */
export const FIXTURE_EXTENSIONS = ['apiConsumer'];

export function installFixtureExtensions(extensionsDir: string): string[] {
  return FIXTURE_EXTENSIONS.map((name) => {
    const manifest = path.join(repoRoot(), 'test', 'ext', 'fixtures', name, 'package.json');
    const main = path.join(compiledTestDir, 'ext', 'fixtures', name, 'extension.js');
    if (!fs.existsSync(main)) {
      throw new Error(`${main} is missing: compile the tests first (npm run compile:tests)`);
    }
    const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { publisher: string; name: string; version: string };
    const into = path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
    fs.mkdirSync(into, { recursive: true });
    fs.copyFileSync(manifest, path.join(into, 'package.json'));
    fs.copyFileSync(main, path.join(into, 'extension.js'));
    return into;
  });
}

export interface MochaResult {
  passes: number;
  failures: number;
  pending: number;
  failed: string[];
}

/** The summary test/ext/index.ts writes (a cross-check of what the console showed). */
/**
 * The runner's exit code from VS Code's and the suite's own word: a suite that wrote no result,
 * or counted a failure, fails the run even when VS Code exited 0.
 */
export function suiteExitCode(label: string, exitCode: number, result: MochaResult | undefined): number {
  if (!result) {
    console.error(`[${label}] the suite wrote no result: treating the run as failed`);
    return exitCode || 1;
  }
  return result.failures ? exitCode || 1 : exitCode;
}

export function readMochaResult(file: string): MochaResult | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as MochaResult;
  } catch {
    return undefined;
  }
}
