// Running git in a repository folder, the one way: no terminal prompt, output capped, never a
// shell. Plain Node (no vscode): the Git extension's API is in gitAccess.ts.
import { execFile } from 'node:child_process';

export interface GitRun {
  /** git's exit code; -1 when it could not run or was stopped. */
  code: number;
  out: Buffer;
  /** The first non-empty line of stderr (else the failure's message; '' on success). */
  err: string;
  /** The output went past `maxBuffer`: `out` is not all of it. */
  overflow: boolean;
}

export interface GitOptions {
  /** The most output read (bytes). */
  maxBuffer: number;
  /** More environment for git (GIT_TERMINAL_PROMPT=0 always). */
  env?: Record<string, string>;
}

/** Runs `git -C root ...args`. Never throws: a failure is a code and a line. */
export function runGit(gitPath: string, root: string, args: string[], options: GitOptions): Promise<GitRun> {
  return new Promise((resolve) => {
    execFile(
      gitPath,
      ['-C', root, ...args],
      {
        encoding: 'buffer',
        maxBuffer: options.maxBuffer,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...options.env },
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        const raw = (error as { code?: unknown } | null)?.code;
        const code = !error ? 0 : typeof raw === 'number' && raw !== 0 ? raw : -1;
        const first = stderr
          .toString('utf8')
          .split('\n')
          .find((line) => line.trim() !== '');
        resolve({
          code,
          out: stdout,
          err: (first ?? (error ? error.message : '')).trim(),
          overflow: raw === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER',
        });
      },
    );
  });
}
