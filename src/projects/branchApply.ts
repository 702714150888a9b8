// "Apply to a New Branch...": a project run's patch (paths relative to the repository root,
// against `base_commit`) becomes a new branch at base_commit with the patch applied, left for the
// user to commit. prepareBranchApply computes every file's new text from `git show
// base_commit:path` first, so the person sees what applies, what does not, what is refused and
// what is binary before anything is written; applyOnNewBranch writes only that. No vscode.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { untranslated, type Translate } from '../common/translate';
import { loadDiff } from '../review/jsdiff';
import { checkProjectTarget, planProjectPatch, type RefusedPart } from './patchSafety';

export interface BranchFile {
  /** Relative to the repository root, `/`-separated. */
  path: string;
  created: boolean;
  text: string;
}

export interface BranchApplyPlan {
  baseCommit: string;
  files: BranchFile[];
  /** Parts whose hunks do not match the file at base_commit: listed, nothing of them written. */
  failed: RefusedPart[];
  refused: RefusedPart[];
  binary: string[];
}

export type Prepared = { ok: true; plan: BranchApplyPlan } | { ok: false; message: string };
export type Applied =
  { ok: true; branch: string; written: string[]; refused: RefusedPart[] } | { ok: false; message: string };

const MAX_FILE_BYTES = 50 * 1024 * 1024;

function git(
  gitPath: string,
  root: string,
  args: string[],
  okCodes: number[] = [0],
): Promise<{ code: number; out: Buffer; err: string }> {
  return new Promise((resolve) => {
    execFile(
      gitPath,
      ['-C', root, ...args],
      {
        encoding: 'buffer',
        maxBuffer: MAX_FILE_BYTES,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        const code = error
          ? typeof (error as { code?: unknown }).code === 'number'
            ? (error as { code: number }).code
            : -1
          : 0;
        resolve({
          code: okCodes.includes(code) ? 0 : code || -1,
          out: stdout,
          err: stderr.toString('utf8').trim().split('\n')[0] ?? '',
        });
      },
    );
  });
}

/** Reads each file at base_commit and applies its part exactly (no fuzz). Writes nothing. */
export async function prepareBranchApply(
  gitPath: string,
  root: string,
  patchText: string,
  baseCommit: string,
  t: Translate = untranslated,
): Promise<Prepared> {
  if (!/^[0-9a-f]{40}$/.test(baseCommit)) {
    return { ok: false, message: t('The patch names no usable base commit.') };
  }
  const exists = await git(gitPath, root, ['cat-file', '-e', `${baseCommit}^{commit}`]);
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
  const { applyPatch } = loadDiff();
  const plan: BranchApplyPlan = {
    baseCommit,
    files: [],
    failed: [],
    refused: planned.targets.refused,
    binary: planned.targets.binary,
  };
  for (const target of planned.targets.writable) {
    const created = target.part.operation === 'create';
    let base = '';
    if (!created) {
      const shown = await git(gitPath, root, ['show', `${baseCommit}:${target.path}`]);
      if (shown.code !== 0) {
        plan.failed.push({
          name: target.path,
          message: t('{0} does not exist at {1}.', target.path, baseCommit.slice(0, 7)),
        });
        continue;
      }
      if (shown.out.subarray(0, 8000).includes(0)) {
        plan.binary.push(target.path);
        continue;
      }
      base = shown.out.toString('utf8');
    }
    let result: string | false;
    try {
      result = applyPatch(base, target.part.patch, { fuzzFactor: 0 });
    } catch {
      result = false;
    }
    if (result === false) {
      plan.failed.push({
        name: target.path,
        message: t('The changes to {0} do not apply to it at {1}.', target.path, baseCommit.slice(0, 7)),
      });
      continue;
    }
    plan.files.push({ path: target.path, created, text: result });
  }
  return { ok: true, plan };
}

/**
 * Creates `branch` at the plan's base commit, switches to it and writes the plan's files (each
 * checked again against the folder as it is on the new branch). Refuses a working tree with
 * tracked changes (they would be carried over or lost) and an invalid or existing branch name.
 */
export async function applyOnNewBranch(
  gitPath: string,
  root: string,
  branch: string,
  plan: BranchApplyPlan,
  t: Translate = untranslated,
): Promise<Applied> {
  const valid = await git(gitPath, root, ['check-ref-format', '--branch', branch]);
  if (branch.startsWith('-') || valid.code !== 0) {
    return { ok: false, message: t('"{0}" is not a valid branch name.', branch) };
  }
  const taken = await git(gitPath, root, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
  if (taken.code === 0) {
    return { ok: false, message: t('A branch named {0} already exists.', branch) };
  }
  const dirty = await git(gitPath, root, ['status', '--porcelain', '--untracked-files=no']);
  if (dirty.code !== 0) {
    return { ok: false, message: t('git status failed: {0}', dirty.err) };
  }
  if (dirty.out.length > 0) {
    return {
      ok: false,
      message: t('The working tree has uncommitted changes; commit or stash them first, then apply to a new branch.'),
    };
  }
  const switched = await git(gitPath, root, ['switch', '-c', branch, plan.baseCommit]);
  if (switched.code !== 0) {
    return { ok: false, message: t('The branch could not be created: {0}', switched.err) };
  }
  // Checked again on the new branch: its tree may hold links the old one did not.
  const written: string[] = [];
  const refused: RefusedPart[] = [];
  for (const file of plan.files) {
    const target = await checkProjectTarget(root, file.path, true, t);
    if (!target.ok) {
      refused.push({ name: file.path, message: target.message });
      continue;
    }
    await fs.mkdir(path.dirname(target.realPath), { recursive: true });
    await fs.writeFile(target.realPath, file.text, 'utf8');
    written.push(file.path);
  }
  return { ok: true, branch, written, refused };
}
