// Stops a detached child and everything it forked (code-server's extension host, file watcher
// and pty host) by signalling its process group: killing only the parent leaves them running.
import { type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';

/** Pids (not zombies) whose process group id is `pgid`. */
export function groupMembers(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') {
        pids.push(Number(entry));
      }
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is already gone
  }
}

function waitUntilGone(pgid: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const deadline = Date.now() + timeoutMs;
    const poll = (): void => {
      if (groupMembers(pgid).length === 0) {
        return resolve(true);
      }
      if (Date.now() > deadline) {
        return resolve(false);
      }
      setTimeout(poll, 100);
    };
    poll();
  });
}

/** SIGTERM the group, wait for it to empty, then SIGKILL whatever is left. */
export async function stopProcessGroup(child: ChildProcess, graceMs = 10_000): Promise<void> {
  const pgid = child.pid;
  if (pgid === undefined) {
    return;
  }
  signalGroup(pgid, 'SIGTERM');
  if (await waitUntilGone(pgid, graceMs)) {
    return;
  }
  signalGroup(pgid, 'SIGKILL');
  await waitUntilGone(pgid, 5_000);
}

/** Last resort on process exit: synchronous SIGKILL of the group. */
export function killProcessGroupSync(child: ChildProcess): void {
  if (child.pid !== undefined) {
    signalGroup(child.pid, 'SIGKILL');
  }
}
