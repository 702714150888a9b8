// Where things live: the repo root (found from this file or the working folder), the
// code-server cache, the packaged .vsix and the git-ignored result folders.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const CODE_SERVER_VERSION = '4.100.3';

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
export const codeServerDir = (): string => path.join(cacheDir(), `code-server-${CODE_SERVER_VERSION}`);
export const codeServerEntry = (): string =>
  path.join(codeServerDir(), 'node_modules', 'code-server', 'out', 'node', 'entry.js');
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
