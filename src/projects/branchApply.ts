// "Apply to a New Branch...": a project run's patch (paths relative to the repository root,
// against `base_commit`) becomes a new branch at base_commit with the patch applied, left for the
// user to commit. prepareBranchApply computes every file's new text from `git show
// base_commit:path` first, so the person sees what applies, what does not, what is refused and
// what is binary before anything is written; applyOnNewBranch writes only that. No vscode.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { type Translate, untranslated } from '../common/translate';
import { type GitLimits, type GitRun, gitStoppedMessage } from './gitExec';
import { gitAtBase, planPatchAtBase } from './patchAtBase';
import { checkProjectTarget, type RefusedPart } from './patchSafety';

export interface BranchFile {
  /** Relative to the repository root, `/`-separated. */
  path: string;
  created: boolean;
  text: string;
}

export interface BranchApplyPlan {
  baseCommit: string;
  files: BranchFile[];
  /** Parts whose hunks do not all match the file at base_commit: listed, nothing of them written. */
  failed: RefusedPart[];
  refused: RefusedPart[];
  binary: string[];
}

export type Prepared = { ok: true; plan: BranchApplyPlan } | { ok: false; message: string };
export type Applied =
  { ok: true; branch: string; written: string[]; refused: RefusedPart[] } | { ok: false; message: string };

/**
 * Every file's new text from the file at base_commit (patchAtBase.ts). A branch takes a file
 * whole or not at all: a file of which some hunk does not match is listed as failed.
 */
export async function prepareBranchApply(
  gitPath: string,
  root: string,
  patchText: string,
  baseCommit: string,
  t: Translate = untranslated,
  limits: GitLimits = {},
): Promise<Prepared> {
  const planned = await planPatchAtBase(gitPath, root, patchText, baseCommit, t, limits);
  if (!planned.ok) {
    return planned;
  }
  const at = planned.plan;
  const short = baseCommit.slice(0, 7);
  const plan: BranchApplyPlan = {
    baseCommit,
    files: [],
    failed: [...at.failed],
    refused: at.refused,
    binary: at.binary,
  };
  for (const file of at.files) {
    if (file.applied < file.hunks) {
      plan.failed.push({
        name: file.path,
        message: t('The changes to {0} do not apply to it at {1}.', file.path, short),
      });
    } else {
      plan.files.push({ path: file.path, created: file.created, text: file.agentText });
    }
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
  limits: GitLimits = {},
): Promise<Applied> {
  try {
    return await applyBranch(gitPath, root, branch, plan, t, limits);
  } catch (err) {
    if (err instanceof GitStopped) {
      return { ok: false, message: err.message };
    }
    throw err;
  }
}

/** A git command of the apply was stopped (time bound or cancel): the sentence says which. */
class GitStopped extends Error {}

async function applyBranch(
  gitPath: string,
  root: string,
  branch: string,
  plan: BranchApplyPlan,
  t: Translate,
  limits: GitLimits,
): Promise<Applied> {
  const git = async (args: string[]): Promise<GitRun> => {
    const ran = await gitAtBase(gitPath, root, args, limits);
    const stopped = gitStoppedMessage(ran, args, limits, t);
    if (stopped) {
      throw new GitStopped(stopped);
    }
    return ran;
  };
  const valid = await git(['check-ref-format', '--branch', branch]);
  if (branch.startsWith('-') || valid.code !== 0) {
    return { ok: false, message: t('"{0}" is not a valid branch name.', branch) };
  }
  const taken = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
  if (taken.code === 0) {
    return { ok: false, message: t('A branch named {0} already exists.', branch) };
  }
  const dirty = await git(['status', '--porcelain', '--untracked-files=no']);
  if (dirty.code !== 0) {
    return { ok: false, message: t('git status failed: {0}', dirty.err) };
  }
  if (dirty.out.length > 0) {
    return {
      ok: false,
      message: t('The working tree has uncommitted changes; commit or stash them first, then apply to a new branch.'),
    };
  }
  const switched = await git(['switch', '-c', branch, plan.baseCommit]);
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
