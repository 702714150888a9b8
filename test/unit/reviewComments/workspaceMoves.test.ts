// Deciding whether the workspace moved on since a run started (a project's HEAD, an uploaded
// file's bytes) and the instructions that tell the agent what moved.
import * as assert from 'node:assert';
import { untranslated } from '../../../src/common/translate';
import {
  catchUpInstructions,
  fileState,
  MAX_CATCH_UP_INSTRUCTIONS,
  MAX_LISTED_COMMITS,
  type ProjectMove,
  projectMove,
} from '../../../src/reviewComments/workspaceMoves';

const BASE = 'a'.repeat(40);
const HEAD = 'b'.repeat(40);

describe('workspaceMoves', () => {
  describe('projectMove', () => {
    it('moved on when HEAD has commits after the base, listed by name, newest first', () => {
      const move = projectMove(
        {
          baseCommit: BASE,
          head: HEAD,
          ref: 'main',
          baseKnown: true,
          commits: [
            { sha: HEAD, subject: 'Second' },
            { sha: 'c'.repeat(40), subject: 'First' },
          ],
        },
        untranslated,
      );
      assert.deepStrictEqual(move, {
        moved: true,
        baseCommit: BASE,
        head: HEAD,
        ref: 'main',
        commits: [
          { sha: HEAD, subject: 'Second' },
          { sha: 'c'.repeat(40), subject: 'First' },
        ],
        more: 0,
      });
    });

    it('has not moved when HEAD is the base, or has nothing after it, and says so in one sentence', () => {
      const same = projectMove({ baseCommit: BASE, head: BASE, baseKnown: true, commits: [] }, untranslated);
      assert.strictEqual(same.moved, false);
      assert.match(
        (same as { sentence: string }).sentence,
        /^The workspace has not moved on: HEAD is still commit aaaaaaa/,
      );
      const older = projectMove({ baseCommit: BASE, head: HEAD, baseKnown: true, commits: [] }, untranslated);
      assert.strictEqual(older.moved, false);
      assert.match((older as { sentence: string }).sentence, /HEAD \(bbbbbbb\) has no commit after aaaaaaa/);
    });

    it('cannot tell when the clone lacks the base commit, and says to fetch', () => {
      const move = projectMove(
        { baseCommit: BASE, head: HEAD, baseKnown: false, commits: [{ sha: HEAD, subject: 'x' }] },
        untranslated,
      );
      assert.strictEqual(move.moved, false);
      assert.match((move as { sentence: string }).sentence, /does not have commit aaaaaaa.*fetch/);
    });

    it('lists at most 50 commits and counts the rest', () => {
      const commits = Array.from({ length: MAX_LISTED_COMMITS + 1 }, (_, i) => ({
        sha: String(i).padStart(40, '0'),
        subject: `c${i}`,
      }));
      const move = projectMove({ baseCommit: BASE, head: HEAD, baseKnown: true, commits }, untranslated);
      assert.ok(move.moved);
      assert.strictEqual(move.commits.length, MAX_LISTED_COMMITS);
      assert.strictEqual(move.more, 1);
    });
  });

  describe('fileState', () => {
    it("edited only when the bytes are neither as sent nor the agent's version", () => {
      assert.strictEqual(fileState({ sent: 's', current: 'x', agents: 'a' }), 'edited');
      assert.strictEqual(fileState({ sent: 's', current: 's', agents: 'a' }), 'asSent');
      assert.strictEqual(fileState({ sent: 's', current: 'a', agents: 'a' }), 'agents');
      assert.strictEqual(fileState({ sent: 's', current: undefined, agents: 'a' }), 'gone');
      assert.strictEqual(fileState({ sent: 's', current: 'x', agents: undefined }), 'edited');
    });
  });

  describe('catchUpInstructions', () => {
    const moved = (commits: number): Extract<ProjectMove, { moved: true }> => ({
      moved: true,
      baseCommit: BASE,
      head: HEAD,
      ref: 'main',
      commits: Array.from({ length: commits }, (_, i) => ({ sha: `${i}`.padStart(40, 'd'), subject: `Subject ${i}` })),
      more: 0,
    });

    it('names the commits, the new HEAD and the uncommitted files for a project', () => {
      const text = catchUpInstructions({ kind: 'project', move: moved(2), uncommitted: ['src/app.ts'] });
      assert.strictEqual(
        text,
        [
          `The workspace moved on since you started from commit ${BASE}: it is now at commit ${HEAD} (branch main), 2 commit(s) later:`,
          '- ddddddd Subject 0',
          '- ddddddd Subject 1',
          '',
          `Start again from commit ${HEAD} and make your changes there, keeping what those commits did. Your patch is then against ${HEAD}.`,
          `The uncommitted work in the workspace is attached as uncommitted.diff, a diff against ${HEAD} of: src/app.ts.`,
        ].join('\n'),
      );
    });

    it("names each edited file with its old and new upload, after the person's own words", () => {
      const text = catchUpInstructions(
        { kind: 'uploads', files: [{ name: 'list.txt', oldFileId: 'file_old', newFileId: 'file_new' }] },
        'Keep the fourth line.',
      );
      assert.strictEqual(
        text,
        [
          'Keep the fourth line.',
          '',
          'Since you started, 1 file(s) you changed were edited in the workspace:',
          '- list.txt (sent as file_old, now file_new)',
          '',
          'The edited versions are attached in place of the ones you had. Make your changes again on them, keeping the edits.',
        ].join('\n'),
      );
    });

    it('keeps a subject on one line, cut at 200 characters, and the whole text within 10,000', () => {
      const long = moved(1);
      long.commits[0].subject = `evil\nline ${'x'.repeat(300)}`;
      const text = catchUpInstructions({ kind: 'project', move: long, uncommitted: [] });
      const line = text.split('\n')[1];
      assert.ok(line.startsWith('- ddddddd evil line '), line);
      assert.strictEqual(line.length, '- ddddddd '.length + 200);
      const huge = catchUpInstructions({ kind: 'project', move: moved(1), uncommitted: [] }, 'y'.repeat(20_000));
      assert.strictEqual(huge.length, MAX_CATCH_UP_INSTRUCTIONS - 1);
    });
  });
});
