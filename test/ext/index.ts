// The extension-host test entry (the @vscode/test-electron contract): VS Code loads this module
// inside its extension host and awaits run(). Runs every compiled test/ext/**/*.test.js with mocha.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

function testFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      files.push(...testFiles(full));
    } else if (entry.name.endsWith('.test.js')) {
      files.push(full);
    }
  }
  return files.sort();
}

/**
 * Suites that need VS Code's Git extension never enabled in this host run first: once a suite
 * enables it (git.enabled true, as the project and catch-up suites do), it stays enabled until
 * the window reloads, whatever the setting says afterwards. ("with git turned off" failed in the
 * whole run when the catch-up suite, sorted before it, had enabled git.)
 */
const BEFORE_GIT_IS_ENABLED = ['projects.test.js'];

function inRunOrder(files: string[]): string[] {
  const first = (f: string) => (BEFORE_GIT_IS_ENABLED.includes(path.basename(f)) ? 0 : 1);
  return [...files].sort((a, b) => first(a) - first(b) || a.localeCompare(b));
}

interface Summary {
  passes: number;
  failures: number;
  pending: number;
  failed: string[];
}

/** Lets the runner cross-check the counts even if the console forwarding drops lines. */
function writeSummary(summary: Summary): void {
  const file = process.env.AGENT_RUNTIME_TEST_RESULT_FILE;
  if (file) {
    fs.writeFileSync(file, JSON.stringify(summary, null, 2));
  }
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, reporter: 'spec', timeout: 30_000 });
  if (process.env.AGENT_RUNTIME_TEST_GREP) {
    mocha.grep(process.env.AGENT_RUNTIME_TEST_GREP);
  }
  for (const file of inRunOrder(testFiles(__dirname))) {
    mocha.addFile(file);
  }
  return new Promise((resolve, reject) => {
    const failed: string[] = [];
    try {
      const runner = mocha.run((failures) => {
        writeSummary({ passes: runner.stats?.passes ?? 0, failures, pending: runner.stats?.pending ?? 0, failed });
        if (failures > 0) {
          reject(new Error(`${failures} extension-host test(s) failed`));
        } else {
          resolve();
        }
      });
      runner.on('fail', (test) => failed.push(test.fullTitle()));
    } catch (err) {
      writeSummary({ passes: 0, failures: 1, pending: 0, failed: [`loading the suites: ${String(err)}`] });
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
