// Every git command the projects run has a bound in time: a real git in a real repository that
// hangs (an fsmonitor hook, a post-checkout hook, a git that never answers) ends with a sentence
// naming the command and what to check, the hook it started is killed, and a cancel stops it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyOnNewBranch, prepareBranchApply } from '../../../src/projects/branchApply';
import { runGit, settleWithin } from '../../../src/projects/gitExec';
import { planPatchAtBase } from '../../../src/projects/patchAtBase';
import { GitCommandError, uncommittedFiles } from '../../../src/projects/workingTree';
import { makeRepository } from './gitRepoKit';

/** Long enough for a real git to start; the hangs below never end by themselves. */
const BOUND_MS = 1500;

/** A shell script at a fresh path (a hook, or a git that waits). */
function script(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

/** Resolves once `pid` is gone (the test's own timeout is the bound). */
async function gone(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves once `file` exists with content. */
async function written(file: string): Promise<string> {
  for (;;) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '';
    if (text !== '') {
      return text;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const PATCH = [
  'diff --git a/src/app.ts b/src/app.ts',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -1,2 +1,2 @@',
  '-export const a = 1;',
  '+export const a = 42;',
  ' export const b = 2;',
  '',
].join('\n');

describe('projects/git bounds', function () {
  if (process.platform === 'win32') {
    return;
  }
  let repo: ReturnType<typeof makeRepository>;
  let tools: string;
  beforeEach(() => {
    repo = makeRepository();
    tools = fs.mkdtempSync(path.join(os.tmpdir(), 'git-bounds-'));
  });
  afterEach(() => {
    fs.rmSync(repo.dir, { recursive: true, force: true });
    fs.rmSync(tools, { recursive: true, force: true });
  });

  it('a git diff held by an fsmonitor hook is stopped with a sentence, and the hook is killed', async () => {
    const pidFile = path.join(tools, 'hook.pid');
    const hook = script(tools, 'fsmonitor', `echo $$ > '${pidFile}'\nsleep 1000`);
    repo.git('config', 'core.fsmonitor', hook);
    fs.writeFileSync(path.join(repo.dir, 'src', 'app.ts'), 'export const a = 2;\n');
    const failed = await uncommittedFiles('git', repo.dir, repo.commit, { timeoutMs: BOUND_MS }).then(
      () => assert.fail('the hung git diff returned'),
      (err: unknown) => err,
    );
    assert.ok(failed instanceof GitCommandError && failed.stopped, String(failed));
    assert.match(failed.message, /^git diff did not finish within 2 seconds and was stopped\./);
    assert.match(failed.message, /run "git status" in a terminal in this repository, then try again/);
    await gone(Number(await written(pidFile)));
  });

  it('a post-checkout hook that waits stops the new branch with a sentence, not a hang', async () => {
    const pidFile = path.join(tools, 'hook.pid');
    script(path.join(repo.dir, '.git', 'hooks'), 'post-checkout', `echo $$ > '${pidFile}'\nsleep 1000`);
    const prepared = await prepareBranchApply('git', repo.dir, PATCH, repo.commit);
    assert.ok(prepared.ok);
    const applied = await applyOnNewBranch('git', repo.dir, 'agent/x', prepared.plan, undefined, {
      timeoutMs: BOUND_MS,
    });
    assert.deepEqual(applied.ok, false);
    assert.match(!applied.ok ? applied.message : '', /^git switch did not finish within 2 seconds/);
    await gone(Number(await written(pidFile)));
  });

  it('a git that never answers `show` ends the patch plan with the sentence', async () => {
    const git = script(tools, 'git', `if [ "$3" = show ]; then exec sleep 1000; fi\nexec git "$@"`);
    const planned = await planPatchAtBase(git, repo.dir, PATCH, repo.commit, undefined, { timeoutMs: BOUND_MS });
    assert.deepEqual(planned.ok, false);
    assert.match(!planned.ok ? planned.message : '', /^git show did not finish within 2 seconds/);
  });

  it('cancelling stops a running git at once and says the plan was cancelled', async () => {
    const started = path.join(tools, 'started');
    const git = script(
      tools,
      'git',
      `if [ "$3" = show ]; then echo $$ > '${started}'; exec sleep 1000; fi\nexec git "$@"`,
    );
    const controller = new AbortController();
    const planning = planPatchAtBase(git, repo.dir, PATCH, repo.commit, undefined, {
      signal: controller.signal,
      timeoutMs: 10 * 60_000,
    });
    const pid = Number(await written(started));
    controller.abort();
    const planned = await planning;
    assert.deepEqual(planned, { ok: false, message: `Reading the patch at ${repo.commit.slice(0, 7)} was cancelled.` });
    await gone(pid);
  });

  it('output past its bound is cut and said, not read whole', async () => {
    fs.writeFileSync(path.join(repo.dir, 'src', 'app.ts'), `${'x'.repeat(4096)}\n`);
    const ran = await runGit('git', repo.dir, ['diff'], { maxBuffer: 1024 });
    assert.equal(ran.overflow, true);
    assert.equal(ran.code, -1);
    assert.ok(ran.out.length <= 1024);
  });

  it('a call into the Git extension that never settles is waited for only up to its bound, or until cancelled', async () => {
    const never = new Promise<void>(() => undefined);
    assert.deepEqual(await settleWithin(never, 50), { kind: 'timedOut' });
    const controller = new AbortController();
    const waiting = settleWithin(never, 10 * 60_000, controller.signal);
    controller.abort();
    assert.deepEqual(await waiting, { kind: 'cancelled' });
    assert.deepEqual(await settleWithin(Promise.resolve(7), 10 * 60_000), { kind: 'done', value: 7 });
    await assert.rejects(settleWithin(Promise.reject(new Error('push failed')), 10 * 60_000), /push failed/);
  });
});
