// The one owner of "a project patch against base_commit": it reads every file the patch names at
// base_commit (`git show base_commit:path`) and applies the file's hunks there, each once in order
// (review/hunkFit.ts), so a part that does not apply whole still offers the hunks that do and
// lists the rest. Bounded: MAX_PART_HUNKS per file, one work budget and MAX_PATCH_BASE_BYTES of
// files read for the whole patch, a time bound on each git command (gitExec.ts), a turn for the
// event loop between slices, an AbortSignal that also kills a running git. Patch
// safety (patchSafety.ts) decides first which names may be touched at all. Both Apply to a New
// Branch (branchApply.ts) and Review Changes (src/reviewUi/projectReview.ts) start here. Writes
// nothing. Plain Node (no vscode).
import { type Translate, untranslated } from '../common/translate';
import { fitBudget, fitHunks, MAX_PART_HUNKS } from '../review/hunkFit';
import { type GitLimits, type GitRun, gitStoppedMessage, runGit } from './gitExec';
import { planProjectPatch, type RefusedPart } from './patchSafety';

/** The largest file read at base_commit (and the largest patch a command reads). */
export const MAX_BASE_FILE_BYTES = 50 * 1024 * 1024;

export { isProjectPatch, type PatchArtifactFields } from './projectPatch';

/** Runs git in `root` (no prompt, output capped at MAX_BASE_FILE_BYTES, bounded in time). Never throws. */
export function gitAtBase(gitPath: string, root: string, args: string[], limits: GitLimits = {}): Promise<GitRun> {
  return runGit(gitPath, root, args, { maxBuffer: MAX_BASE_FILE_BYTES, ...limits });
}

/** The file's bytes at `commit`; undefined when it is not there (or git failed). */
export async function readAtCommit(
  gitPath: string,
  root: string,
  commit: string,
  path: string,
  limits: GitLimits = {},
): Promise<Buffer | undefined> {
  const shown = await readFileAtCommit(gitPath, root, commit, path, limits);
  return 'bytes' in shown ? shown.bytes : undefined;
}

/** The file's bytes at `commit`, or why not: larger than MAX_BASE_FILE_BYTES, git stopped, or git's line. */
async function readFileAtCommit(
  gitPath: string,
  root: string,
  commit: string,
  path: string,
  limits: GitLimits,
  t: Translate = untranslated,
): Promise<{ bytes: Buffer } | { tooLarge: true } | { stopped: string } | { failed: string }> {
  const args = ['show', `${commit}:${path}`];
  const shown = await gitAtBase(gitPath, root, args, limits);
  if (shown.code === 0) {
    return { bytes: shown.out };
  }
  const stopped = gitStoppedMessage(shown, args, limits, t);
  if (stopped) {
    return { stopped };
  }
  return shown.overflow ? { tooLarge: true } : { failed: shown.err };
}

/** The files read at base_commit for one patch, all together; files past it are not offered. */
export const MAX_PATCH_BASE_BYTES = 200 * 1024 * 1024;

/** One file of the patch at base_commit. */
export interface FileAtBase {
  /** Relative to the repository root, `/`-separated. */
  path: string;
  created: boolean;
  /** The file at base_commit (empty for a created file). */
  baseBytes: Buffer;
  /** The base text with every hunk that applies (the agent's version, as far as it applies). */
  agentText: string;
  /** Hunks of this file's part, and how many of them applied. */
  hunks: number;
  applied: number;
}

export interface HunkNotApplied {
  path: string;
  /** 1-based, of the file's part. */
  hunk: number;
  hunks: number;
  /** Where it says it starts at base_commit. */
  line: number;
  message: string;
}

export interface PatchAtBase {
  baseCommit: string;
  files: FileAtBase[];
  /** Files of which nothing applies (missing at base_commit, or no hunk matches). */
  failed: RefusedPart[];
  /** Hunks of offered files that do not match at base_commit: listed, not offered. */
  hunksNotApplied: HunkNotApplied[];
  refused: RefusedPart[];
  /** Binary parts (or files binary at base_commit): listed, never applied. */
  binary: string[];
  /** Files past MAX_PATCH_FILES, not considered. */
  skipped: number;
}

export type PlannedAtBase = { ok: true; plan: PatchAtBase } | { ok: false; message: string };

/**
 * Reads each file the patch may touch at base_commit and applies its hunks exactly (no fuzz),
 * each once: a hunk that does not match is left out and listed. Never throws.
 */
export async function planPatchAtBase(
  gitPath: string,
  root: string,
  patchText: string,
  baseCommit: string,
  t: Translate = untranslated,
  options: GitLimits = {},
): Promise<PlannedAtBase> {
  if (!/^[0-9a-f]{40}$/.test(baseCommit)) {
    return { ok: false, message: t('The patch names no usable base commit.') };
  }
  const existsArgs = ['cat-file', '-e', `${baseCommit}^{commit}`];
  const exists = await gitAtBase(gitPath, root, existsArgs, options);
  const short = baseCommit.slice(0, 7);
  const cancelled = t('Reading the patch at {0} was cancelled.', short);
  const stopped = gitStoppedMessage(exists, existsArgs, options, t);
  if (stopped) {
    return { ok: false, message: exists.cancelled ? cancelled : stopped };
  }
  if (exists.code !== 0) {
    return {
      ok: false,
      message: t(
        'This repository does not have the commit {0} the patch is based on; fetch first.',
        baseCommit.slice(0, 7),
      ),
    };
  }
  const planned = await planProjectPatch(patchText, root, t, { editedMayBeMissing: true });
  if (!planned.ok) {
    return planned;
  }
  const plan: PatchAtBase = {
    baseCommit,
    files: [],
    failed: [],
    hunksNotApplied: [],
    refused: planned.targets.refused,
    binary: planned.targets.binary,
    skipped: planned.targets.skipped,
  };
  // One bound for the whole patch: its files' hunks share the work budget and the bytes read.
  const budget = fitBudget();
  let readBytes = 0;
  for (const target of planned.targets.writable) {
    const created = target.part.operation === 'create';
    let baseBytes: Buffer = Buffer.alloc(0);
    // One part at a time, each in a task of its own: a long patch never holds the host for long.
    await new Promise((resolve) => setImmediate(resolve));
    if (!created) {
      const shown = await readFileAtCommit(gitPath, root, baseCommit, target.path, options, t);
      if ('stopped' in shown) {
        // The rest would wait as long: the whole plan stops with the sentence.
        return { ok: false, message: options.signal?.aborted ? cancelled : shown.stopped };
      }
      if ('tooLarge' in shown) {
        plan.failed.push({
          name: target.path,
          message: t(
            '{0} is larger than {1} MB at {2}; it is not offered.',
            target.path,
            MAX_BASE_FILE_BYTES / 2 ** 20,
            short,
          ),
        });
        continue;
      }
      if ('failed' in shown) {
        plan.failed.push({ name: target.path, message: t('{0} does not exist at {1}.', target.path, short) });
        continue;
      }
      if (shown.bytes.subarray(0, 8000).includes(0)) {
        plan.binary.push(target.path);
        continue;
      }
      baseBytes = shown.bytes;
    }
    readBytes += baseBytes.length;
    if (readBytes > MAX_PATCH_BASE_BYTES) {
      plan.failed.push({
        name: target.path,
        message: t(
          '{0} is not offered: the files this patch changes come to more than {1} MB at {2}.',
          target.path,
          MAX_PATCH_BASE_BYTES / 2 ** 20,
          short,
        ),
      });
      continue;
    }
    const all = target.part.patch.hunks;
    const fitted = await fitHunks(baseBytes.toString('utf8'), target.part.patch, {
      stopAtMisfit: false,
      budget,
      signal: options.signal,
    });
    if (fitted.kind === 'cancelled') {
      return { ok: false, message: cancelled };
    }
    if (fitted.kind === 'tooManyHunks') {
      plan.failed.push({
        name: target.path,
        message: t(
          'The patch changes {0} in {1} places, more than the {2} that are applied at most; it is not offered.',
          target.path,
          all.length,
          MAX_PART_HUNKS,
        ),
      });
      continue;
    }
    if (fitted.kind === 'tooMuchWork') {
      plan.failed.push({
        name: target.path,
        message: t(
          '{0} is not offered: finding where its changes go at {1} took more work than one patch is allowed (it stopped at change {2} of {3}).',
          target.path,
          short,
          fitted.hunk,
          all.length,
        ),
      });
      continue;
    }
    if (fitted.kind === 'stopped' || (all.length > 0 && fitted.applied === 0)) {
      plan.failed.push({
        name: target.path,
        message: t('The changes to {0} do not apply to it at {1}.', target.path, short),
      });
      continue;
    }
    for (const i of fitted.misfits) {
      const hunk = all[i];
      plan.hunksNotApplied.push({
        path: target.path,
        hunk: i + 1,
        hunks: all.length,
        line: hunk.oldStart,
        message: t(
          'Change {0} of {1} to {2} (at line {3}) does not match the file at {4}; it is not offered.',
          i + 1,
          all.length,
          target.path,
          hunk.oldStart,
          short,
        ),
      });
    }
    plan.files.push({
      path: target.path,
      created,
      baseBytes,
      agentText: fitted.text,
      hunks: all.length,
      applied: fitted.applied,
    });
  }
  return { ok: true, plan };
}
