// Makes sure the machine is set up for a real-editor run: the cached code-server exists (running
// test/e2e/install-code-server.sh when it does not), and a missing piece fails as one line.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  codeServerDir,
  codeServerEntry,
  codeServerNode,
  describeTarget,
  installerScript,
  type VsCodeTarget,
  vscodeTarget,
} from './paths';

/**
 * An error for a set-up step the user still has to do (install a package, say). Its message names
 * the step; a stack trace would only bury it, so the runners, which print `stack`, print the message.
 */
export function setupError(message: string): Error {
  const err = new Error(message);
  err.stack = message;
  return err;
}

/**
 * Returns the path of code-server's entry.js for `target` (by default the VS Code E2E_VSCODE
 * names, else the newest), installing it first if the cache is missing.
 */
export function ensureCodeServer(
  log: (line: string) => void = console.log,
  target: VsCodeTarget = vscodeTarget(),
): string {
  const stamp = path.join(codeServerDir(target), `.code-server-${target.codeServer}.ok`);
  if (fs.existsSync(stamp) && fs.existsSync(codeServerEntry(target)) && fs.existsSync(codeServerNode(target))) {
    return codeServerEntry(target);
  }
  log(
    `${describeTarget(target)} is not in ${codeServerDir(target)}: installing it (one to two minutes, npm registry + apt only)`,
  );
  const started = Date.now();
  const result = spawnSync('bash', [installerScript(), '--vscode', target.vscode, codeServerDir(target)], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) {
    throw setupError(
      `test/e2e/install-code-server.sh --vscode ${target.vscode} failed (exit ${result.status ?? result.signal ?? result.error?.message}); its output above says why`,
    );
  }
  log(`code-server installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return codeServerEntry(target);
}
