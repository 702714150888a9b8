// Running git in a repository folder, the one way: no terminal prompt, never a shell, output
// capped, a bound in time, and an AbortSignal. On the bound or the signal the whole process
// group is killed (git and any hook or helper it started), so a hook that waits or a git that
// hangs ends with a sentence, never a command that never returns. Plain Node (no vscode): the
// Git extension's API is in gitAccess.ts.
import { spawn } from 'node:child_process';
import { type Translate, untranslated } from '../common/translate';

export interface GitRun {
  /** git's exit code; -1 when it could not run or was stopped. */
  code: number;
  out: Buffer;
  /** The first non-empty line of stderr (else the failure's message; '' on success). */
  err: string;
  /** The output went past `maxBuffer`: `out` is not all of it. */
  overflow: boolean;
  /** Stopped at `timeoutMs`: git did not finish in time. */
  timedOut: boolean;
  /** Stopped by the signal (the person cancelled). */
  cancelled: boolean;
}

/** How long one git command may take unless the caller says otherwise. */
export const GIT_TIMEOUT_MS = 2 * 60_000;
/** The most of stderr kept (only its first line is used). */
const MAX_STDERR_BYTES = 64 * 1024;

export interface GitLimits {
  /** How long git may run before it is killed (default GIT_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Kills git when aborted. */
  signal?: AbortSignal;
}

export interface GitOptions extends GitLimits {
  /** The most output read (bytes). */
  maxBuffer: number;
  /** More environment for git (GIT_TERMINAL_PROMPT=0 always). */
  env?: Record<string, string>;
}

/** Runs `git -C root ...args`. Never throws: a failure is a code and a line. */
export function runGit(gitPath: string, root: string, args: string[], options: GitOptions): Promise<GitRun> {
  const timeoutMs = options.timeoutMs ?? GIT_TIMEOUT_MS;
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let overflow = false;
    let settled = false;
    let stopped: 'timedOut' | 'cancelled' | undefined;
    let child: ReturnType<typeof spawn>;
    const finish = (code: number, failure?: string): void => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', cancel);
      const first = Buffer.concat(err)
        .toString('utf8')
        .split('\n')
        .find((line) => line.trim() !== '');
      resolve({
        code: stopped || overflow ? -1 : code,
        out: Buffer.concat(out),
        err: stopped ? '' : (first ?? failure ?? '').trim(),
        overflow,
        timedOut: stopped === 'timedOut',
        cancelled: stopped === 'cancelled',
      });
    };
    const kill = (): void => {
      try {
        // Detached on POSIX: git leads its own process group, so a hook it started dies with it.
        if (process.platform !== 'win32' && child.pid !== undefined) {
          process.kill(-child.pid, 'SIGKILL');
        } else {
          child.kill('SIGKILL');
        }
      } catch {
        // Already gone.
      }
      child.stdout?.destroy();
      child.stderr?.destroy();
    };
    const stop = (why: 'timedOut' | 'cancelled'): void => {
      if (settled) {
        return;
      }
      stopped ??= why;
      kill();
      // Not waiting for 'close': a grandchild that left the group could hold the pipes open.
      finish(-1);
    };
    const cancel = (): void => stop('cancelled');
    const timer = setTimeout(() => stop('timedOut'), timeoutMs);
    try {
      child = spawn(gitPath, ['-C', root, ...args], {
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (error) {
      finish(-1, error instanceof Error ? error.message : String(error));
      return;
    }
    if (options.signal?.aborted) {
      cancel();
      return;
    }
    options.signal?.addEventListener('abort', cancel, { once: true });
    child.stdout?.on('data', (chunk: Buffer) => {
      if (outBytes + chunk.length > options.maxBuffer) {
        out.push(chunk.subarray(0, options.maxBuffer - outBytes));
        outBytes = options.maxBuffer;
        overflow = true;
        kill();
        finish(-1);
        return;
      }
      out.push(chunk);
      outBytes += chunk.length;
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      if (errBytes < MAX_STDERR_BYTES) {
        err.push(chunk.subarray(0, MAX_STDERR_BYTES - errBytes));
        errBytes += Math.min(chunk.length, MAX_STDERR_BYTES - errBytes);
      }
    });
    child.on('error', (error) => finish(-1, error.message));
    child.on('close', (code, signal) =>
      finish(
        typeof code === 'number' && code !== 0 ? code : code === 0 ? 0 : -1,
        signal ? `git ended by ${signal}` : '',
      ),
    );
  });
}

/**
 * The sentence for a git command that was stopped (undefined when it was not): it names the
 * command and the bound, and says what to check next.
 */
export function gitStoppedMessage(
  run: GitRun,
  args: readonly string[],
  limits: GitLimits = {},
  t: Translate = untranslated,
): string | undefined {
  const command = `git ${args.find((a) => !a.startsWith('-') && !a.includes('=')) ?? ''}`.trim();
  if (run.cancelled) {
    return t('{0} was cancelled.', command);
  }
  if (!run.timedOut) {
    return undefined;
  }
  return t(
    '{0} did not finish within {1} seconds and was stopped. A git hook that waits, a lock held by another git command or a slow disk can cause this: run "git status" in a terminal in this repository, then try again.',
    command,
    Math.max(1, Math.round((limits.timeoutMs ?? GIT_TIMEOUT_MS) / 1000)),
  );
}

export type Settled<T> = { kind: 'done'; value: T } | { kind: 'timedOut' } | { kind: 'cancelled' };

/**
 * Waits for work this extension cannot kill (a call into the Git extension's API) at most
 * `timeoutMs`, or until `signal` aborts; the work itself may go on. Its rejection is passed on.
 */
export function settleWithin<T>(work: PromiseLike<T>, timeoutMs: number, signal?: AbortSignal): Promise<Settled<T>> {
  return new Promise((resolve, reject) => {
    const done = (result: Settled<T>): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
      resolve(result);
    };
    const cancel = (): void => done({ kind: 'cancelled' });
    const timer = setTimeout(() => done({ kind: 'timedOut' }), timeoutMs);
    if (signal?.aborted) {
      cancel();
      return;
    }
    signal?.addEventListener('abort', cancel, { once: true });
    work.then(
      (value) => done({ kind: 'done', value }),
      (err: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', cancel);
        reject(err);
      },
    );
  });
}
