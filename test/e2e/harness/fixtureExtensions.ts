// Test-only extensions a UI scenario installs beside the packaged one (test/e2e/fixtures/<name>,
// plain JavaScript, never in the .vsix). code-server installs extensions from a .vsix only (not
// from a folder), so the fixture is packaged with the project's own vsce first.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './paths';

/** The folder of fixture extension `name`. */
export const fixtureExtensionDir = (name: string): string => path.join(repoRoot(), 'test', 'e2e', 'fixtures', name);

/** The fixture's extension id (publisher.name), read from its manifest. */
export function fixtureExtensionId(name: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(fixtureExtensionDir(name), 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
  };
  return `${pkg.publisher}.${pkg.name}`;
}

/** Packages fixture extension `name` into `outDir` and returns the .vsix's path. */
export function packageFixtureExtension(name: string, outDir: string): string {
  const vsix = path.join(outDir, `${name}.vsix`);
  const vsce = path.join(repoRoot(), 'node_modules', '.bin', 'vsce');
  const result = spawnSync(
    vsce,
    ['package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--out', vsix],
    { cwd: fixtureExtensionDir(name), encoding: 'utf8', timeout: 120_000 },
  );
  if (result.status !== 0 || !fs.existsSync(vsix)) {
    throw new Error(
      `vsce package of test/e2e/fixtures/${name} failed (exit ${result.status ?? result.signal ?? result.error?.message}): ${String(result.stderr || result.stdout).slice(-2000)}`,
    );
  }
  return vsix;
}
