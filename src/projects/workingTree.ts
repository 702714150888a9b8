// Uncommitted work of a repository, read with the git binary the Git extension uses: which files
// changed against HEAD (tracked) and which are new (untracked, .gitignore honoured), and one
// unified diff of them against a commit (`git diff <commit>`, untracked files added only when the
// user ticked them). Bounded: a diff past MAX_PATCH_BYTES is refused, not cut; each git command
// has a time bound (gitExec.ts) and a stopped one throws a sentence that says so. No vscode.
import { type Translate, untranslated } from '../common/translate';
import { type GitLimits, gitStoppedMessage, runGit } from './gitExec';

/** The largest uncommitted patch offered as an attachment. */
export const MAX_PATCH_BYTES = 50 * 1024 * 1024;
/** Files listed at most (tracked and untracked each). */
export const MAX_LISTED_FILES = 1000;

export interface UncommittedFiles {
  /** Tracked files that differ from the commit (changed, added to the index, deleted). */
  tracked: string[];
  /** Files git does not track and .gitignore does not exclude. */
  untracked: string[];
  /** More files than MAX_LISTED_FILES: the lists are cut. */
  cut: boolean;
  /** The tracked list is cut: a patch of "every tracked change" would hold files never listed. */
  trackedCut: boolean;
}

export class GitCommandError extends Error {
  override readonly name = 'GitCommandError';
  constructor(
    message: string,
    /** git was stopped (time bound or cancel), not refused: the message says which command. */
    readonly stopped = false,
  ) {
    super(message);
  }
}

/** The time bound and cancel for the git commands, and the language of a stopped one's sentence. */
export interface WorkingTreeOptions extends GitLimits {
  t?: Translate;
}

async function run(
  gitPath: string,
  root: string,
  args: string[],
  okCodes: number[],
  options: WorkingTreeOptions,
): Promise<Buffer> {
  const ran = await runGit(gitPath, root, ['-c', 'core.quotepath=off', ...args], {
    maxBuffer: MAX_PATCH_BYTES + 1024 * 1024,
    env: { GIT_OPTIONAL_LOCKS: '0' },
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
  const stopped = gitStoppedMessage(ran, args, options, options.t ?? untranslated);
  if (stopped) {
    throw new GitCommandError(stopped, true);
  }
  if (okCodes.includes(ran.code)) {
    return ran.out;
  }
  if (ran.overflow) {
    throw new GitCommandError(`The uncommitted changes are larger than ${MAX_PATCH_BYTES / (1024 * 1024)} MB.`);
  }
  throw new GitCommandError(`git ${args[0]} failed: ${ran.err.slice(0, 300)}`);
}

function names(out: Buffer): string[] {
  return out
    .toString('utf8')
    .split('\0')
    .filter((n) => n !== '');
}

/** A commit id as git writes it (40 hex), else an error. */
export async function resolveCommit(
  gitPath: string,
  root: string,
  rev: string,
  options: WorkingTreeOptions = {},
): Promise<string> {
  if (rev.startsWith('-')) {
    throw new GitCommandError(`Not a revision: ${rev}`);
  }
  const out = (await run(gitPath, root, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], [0], options))
    .toString('utf8')
    .trim();
  if (!/^[0-9a-f]{40}$/.test(out)) {
    throw new GitCommandError(`Not a commit: ${rev}`);
  }
  return out;
}

/** The branch HEAD is on (undefined when detached). */
export async function currentBranch(
  gitPath: string,
  root: string,
  options: WorkingTreeOptions = {},
): Promise<string | undefined> {
  const out = await run(gitPath, root, ['symbolic-ref', '--short', '-q', 'HEAD'], [0, 1], options);
  const name = out.toString('utf8').trim();
  return name === '' ? undefined : name;
}

/** What differs from `commit` in the working tree, by file name. */
export async function uncommittedFiles(
  gitPath: string,
  root: string,
  commit: string,
  options: WorkingTreeOptions = {},
): Promise<UncommittedFiles> {
  const tracked = names(
    await run(gitPath, root, ['diff', '--name-only', '-z', '--no-renames', commit, '--'], [0], options),
  );
  const untracked = names(await run(gitPath, root, ['ls-files', '--others', '--exclude-standard', '-z'], [0], options));
  const cut = tracked.length > MAX_LISTED_FILES || untracked.length > MAX_LISTED_FILES;
  return {
    tracked: tracked.slice(0, MAX_LISTED_FILES),
    untracked: untracked.slice(0, MAX_LISTED_FILES),
    cut,
    trackedCut: tracked.length > MAX_LISTED_FILES,
  };
}

/**
 * One unified diff against `commit`: every tracked change, plus the `untracked` files given (each
 * must be one git lists as untracked; others are ignored). Paths `a/<path>`, `b/<path>` relative
 * to the repository root; binary files as git's "Binary files differ" lines. Empty: no change.
 */
export async function uncommittedPatch(
  gitPath: string,
  root: string,
  commit: string,
  untracked: readonly string[] = [],
  /** Only these tracked files (undefined: every tracked change; empty: none). */
  tracked?: readonly string[],
  options: WorkingTreeOptions = {},
): Promise<string> {
  const common = ['--no-color', '--no-ext-diff', '--no-renames', '--src-prefix=a/', '--dst-prefix=b/'];
  const pathspecs = tracked === undefined ? [] : tracked.map((file) => `:(literal)${file}`);
  let patch =
    tracked !== undefined && tracked.length === 0
      ? ''
      : (await run(gitPath, root, ['diff', ...common, commit, '--', ...pathspecs], [0], options)).toString('utf8');
  if (untracked.length > 0) {
    const allowed = new Set((await uncommittedFiles(gitPath, root, commit, options)).untracked);
    for (const file of untracked) {
      if (!allowed.has(file)) {
        continue;
      }
      // Exit code 1 = "there are differences", which a new file always has.
      const part = (
        await run(gitPath, root, ['diff', ...common, '--no-index', '--', '/dev/null', file], [0, 1], options)
      ).toString('utf8');
      patch += part;
      if (Buffer.byteLength(patch) > MAX_PATCH_BYTES) {
        throw new GitCommandError(`The uncommitted changes are larger than ${MAX_PATCH_BYTES / (1024 * 1024)} MB.`);
      }
    }
  }
  return patch;
}
