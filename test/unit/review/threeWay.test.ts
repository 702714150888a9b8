// The three-way merge: the agent's changes carried onto a workspace file edited since upload.
import * as assert from 'node:assert';
import { mergeThreeWay } from '../../../src/review/threeWay';

const lines = (...items: string[]) => items.map((s) => `${s}\n`).join('');
const base = lines('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');

describe('review three-way merge', () => {
  it('applies changes to different lines from both sides cleanly', () => {
    const workspace = lines('a', 'B-ws', 'c', 'd', 'e', 'f', 'g', 'h', 'tail-ws');
    const agent = lines('a', 'b', 'c', 'd', 'E-agent', 'f', 'g', 'h');
    const merge = mergeThreeWay(base, workspace, agent);
    assert.strictEqual(merge.clean, true);
    assert.deepStrictEqual(merge.conflicts, []);
    assert.strictEqual(merge.text, lines('a', 'B-ws', 'c', 'd', 'E-agent', 'f', 'g', 'h', 'tail-ws'));
    assert.strictEqual(merge.appliedAgentHunks, 1);
  });

  it('takes changes on neighbouring lines (one ends where the other begins) without a conflict', () => {
    const workspace = lines('a', 'b', 'C-ws', 'd', 'e', 'f', 'g', 'h');
    const agent = lines('a', 'b', 'c', 'D-agent', 'e', 'f', 'g', 'h');
    const merge = mergeThreeWay(base, workspace, agent);
    assert.strictEqual(merge.clean, true);
    assert.strictEqual(merge.text, lines('a', 'b', 'C-ws', 'D-agent', 'e', 'f', 'g', 'h'));
  });

  it('reports overlapping different changes as a conflict with the line ranges of every side', () => {
    const workspace = lines('inserted-ws', 'a', 'b', 'c', 'D-ws', 'e', 'f', 'g', 'h');
    const agent = lines('a', 'b', 'c', 'D-agent', 'E-agent', 'f', 'g', 'h', 'tail-agent');
    const merge = mergeThreeWay(base, workspace, agent);
    assert.strictEqual(merge.clean, false);
    assert.strictEqual(merge.conflicts.length, 1);
    const [conflict] = merge.conflicts;
    assert.deepStrictEqual(conflict.base, { start: 4, count: 2 });
    assert.deepStrictEqual(conflict.workspace, { start: 5, count: 2 });
    assert.deepStrictEqual(conflict.agent, { start: 4, count: 2 });
    assert.deepStrictEqual(conflict.baseLines, ['d\n', 'e\n']);
    assert.deepStrictEqual(conflict.workspaceLines, ['D-ws\n', 'e\n']);
    assert.deepStrictEqual(conflict.agentLines, ['D-agent\n', 'E-agent\n']);
    // The default keeps the workspace's lines in the conflict and still takes the agent's clean change.
    assert.strictEqual(merge.text, lines('inserted-ws', 'a', 'b', 'c', 'D-ws', 'e', 'f', 'g', 'h', 'tail-agent'));
    assert.deepStrictEqual(conflict.merged, { start: 5, count: 2 });
    assert.strictEqual(merge.appliedAgentHunks, 1);
  });

  it('writes conflict markers when asked, and can take the agent side instead', () => {
    const workspace = lines('a', 'B-ws', 'c', 'd', 'e', 'f', 'g', 'h');
    const agent = lines('a', 'B-agent', 'c', 'd', 'e', 'f', 'g', 'h');
    const marked = mergeThreeWay(base, workspace, agent, { conflictStyle: 'markers' });
    assert.strictEqual(
      marked.text,
      lines('a', '<<<<<<< workspace', 'B-ws', '=======', 'B-agent', '>>>>>>> agent', 'c', 'd', 'e', 'f', 'g', 'h'),
    );
    assert.deepStrictEqual(marked.conflicts[0].merged, { start: 2, count: 5 });
    const theirs = mergeThreeWay(base, workspace, agent, { conflictStyle: 'agent' });
    assert.strictEqual(theirs.text, agent);
    assert.strictEqual(theirs.clean, false);
  });

  it('does not call the same change made on both sides a conflict', () => {
    const both = lines('a', 'b', 'C-same', 'd', 'e', 'f', 'g', 'h');
    const merge = mergeThreeWay(base, both, both);
    assert.strictEqual(merge.clean, true);
    assert.strictEqual(merge.text, both);
  });

  it('treats two different insertions at the same place as a conflict, identical ones as one', () => {
    const workspace = lines('a', 'b', 'new-ws', 'c', 'd', 'e', 'f', 'g', 'h');
    const agent = lines('a', 'b', 'new-agent', 'c', 'd', 'e', 'f', 'g', 'h');
    const merge = mergeThreeWay(base, workspace, agent);
    assert.strictEqual(merge.conflicts.length, 1);
    assert.deepStrictEqual(merge.conflicts[0].base, { start: 3, count: 0 });
    assert.deepStrictEqual(mergeThreeWay(base, workspace, workspace).clean, true);
    assert.strictEqual(mergeThreeWay(base, workspace, workspace).text, workspace);
  });

  it("groups a change that spans several of the other side's changes into one conflict", () => {
    const workspace = lines('a', 'B-ws', 'c', 'D-ws', 'e', 'f', 'g', 'h');
    const agent = lines('a', 'one-agent-block', 'e', 'f', 'g', 'h');
    const merge = mergeThreeWay(base, workspace, agent);
    assert.strictEqual(merge.conflicts.length, 1);
    assert.deepStrictEqual(merge.conflicts[0].base, { start: 2, count: 3 });
    assert.deepStrictEqual(merge.conflicts[0].workspaceLines, ['B-ws\n', 'c\n', 'D-ws\n']);
    assert.deepStrictEqual(merge.conflicts[0].agentLines, ['one-agent-block\n']);
  });

  it('gives the agent version when the workspace did not change, and the workspace when the agent did not', () => {
    const agent = lines('a', 'b', 'X', 'd', 'e', 'f', 'g', 'h');
    assert.strictEqual(mergeThreeWay(base, base, agent).text, agent);
    assert.strictEqual(mergeThreeWay(base, agent, base).text, agent);
  });

  it('keeps a missing final newline missing, and ends a conflict side without one before its marker', () => {
    const noEol = 'a\nb\nc';
    const clean = mergeThreeWay(noEol, 'A\nb\nc', 'a\nb\nC');
    assert.strictEqual(clean.text, 'A\nb\nC');
    const conflict = mergeThreeWay(noEol, 'a\nb\nc-ws', 'a\nb\nc-agent', { conflictStyle: 'markers' });
    assert.strictEqual(conflict.text, 'a\nb\n<<<<<<< workspace\nc-ws\n=======\nc-agent\n>>>>>>> agent\n');
  });

  it("never glues the other side's appended lines onto a last line left without a newline", () => {
    // Found by the seeded random test (seed 67): the workspace rewrote the file ending without a
    // newline, the agent appended a line; taken side by side they made "eg1".
    const merge = mergeThreeWay('c\ne\nb\n', 'w2\nw0\ne', 'c\ng0\ne\nb\ng1\n');
    assert.strictEqual(merge.conflicts.length, 1);
    assert.strictEqual(merge.text, 'w2\nw0\ne');
    assert.doesNotMatch(
      mergeThreeWay('a\nb\n', 'a\nB', 'a\nb\nappended\n', { conflictStyle: 'markers' }).text,
      /Bappended/,
    );
  });

  it('numbers conflicts in text order', () => {
    const workspace = lines('A1', 'b', 'c', 'd', 'e', 'f', 'g', 'H1');
    const agent = lines('A2', 'b', 'c', 'd', 'e', 'f', 'g', 'H2');
    const merge = mergeThreeWay(base, workspace, agent);
    assert.deepStrictEqual(
      merge.conflicts.map((c) => [c.id, c.base.start]),
      [
        ['c1', 1],
        ['c2', 8],
      ],
    );
  });
});
