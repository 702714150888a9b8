// A follow-up run reviewed as the next revision, inside the extension host against the reference
// runtime: Changes Since Revision 1 shows only what the follow-up changed (the file it left as
// revision 1 did is counted, not shown), each side named in words; Mark File as Reviewed holds
// for a revision that leaves the file the same and is reset by one that changes it again.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { ApiClient } from '../../src/api/client';
import type { ReviewSummary } from '../../src/reviewUi/reviewCommands';
import { reviewUri } from '../../src/reviewUi/reviewContent';
import type { SinceSummary } from '../../src/reviewUi/revisionReview';
import { REVISED_MARK } from '../runtime/reviewComments';
import { lines, revisionOf, untilRunEnds, uploadAndRun, workspaceFolder } from './reviewKit';
import { suiteWithService, testEnv, waitFor } from './support';

/** The sequence of the run's last event (the terminal one), from the runtime's admin log. */
async function lastSequence(runId: string): Promise<number> {
  const { baseUrl, adminKey } = testEnv();
  const res = await fetch(`${baseUrl}/__admin/runs/${runId}/log`, { headers: { authorization: `Bearer ${adminKey}` } });
  const log = (await res.json()) as { data: { sequence: number }[] };
  return Math.max(...log.data.map((e) => e.sequence));
}

/** A follow-up after the run's last step, with one comment on a line of the agent's version. */
async function followUp(client: ApiClient, runId: string, path: string, line: number, quote: string): Promise<string> {
  const run = await client.forkRun(runId, {
    after_sequence: (await lastSequence(runId)) - 1,
    reviewComments: [
      {
        id: `rc_${Date.now()}-${line}`,
        path,
        start_line: line,
        end_line: line,
        side: 'agent',
        quote,
        body: 'Plainer.',
      },
    ],
  });
  await untilRunEnds(client, run.id, 'the follow-up', 25_000);
  return run.id;
}

describe('review revisions', () => {
  const client = suiteWithService();
  let folder: vscode.Uri;
  before(() => {
    folder = workspaceFolder();
  });

  it('shows only the follow-up’s edits since revision 1, and resets a reviewed file a revision changes again', async () => {
    const a = vscode.Uri.joinPath(folder, 'since-a.txt');
    const b = vscode.Uri.joinPath(folder, 'since-b.txt');
    await vscode.workspace.fs.writeFile(a, Buffer.from(lines(8, 'alpha')));
    await vscode.workspace.fs.writeFile(b, Buffer.from(lines(8, 'beta')));
    const { runId: first } = await uploadAndRun([a, b], `Revisions ${Date.now()}`, client);
    const firstReview = await vscode.commands.executeCommand<ReviewSummary>('agentRuntime.reviewChanges', {
      runId: first,
    });
    assert.strictEqual(firstReview?.revision, 1);
    const sinceA = firstReview.files.find((f) => f.relativePath === 'since-a.txt');
    const aId = sinceA?.fileId;
    const bId = firstReview.files.find((f) => f.relativePath === 'since-b.txt')?.fileId;
    assert.ok(sinceA && aId && bId, JSON.stringify(firstReview.files));

    // Revision 2: one comment on since-a.txt; since-b.txt is saved again as revision 1 left it.
    const revision1A = await revisionOf(client, first, aId);
    const second = await followUp(client, first, 'since-a.txt', 3, revision1A.split('\n')[2]);
    const review = await vscode.commands.executeCommand<ReviewSummary>('agentRuntime.reviewChanges', { runId: second });
    assert.strictEqual(review?.revision, 2);

    const since = await vscode.commands.executeCommand<SinceSummary>('agentRuntime.reviewChangesSinceRevision', {
      runId: second,
    });
    assert.ok(since, 'Changes Since Revision 1 returned nothing');
    assert.strictEqual(since.previousRevision, 1);
    assert.strictEqual(since.previousRunId, first);
    assert.deepStrictEqual(since.files, [{ relativePath: 'since-a.txt', kind: 'changed', reviewed: false }]);
    assert.deepStrictEqual(since.unchanged, ['since-b.txt']);
    // The two sides are the revisions as the agent left them: only the commented line differs.
    // The documents the multi-file diff opened have the workspace file's path on both sides: VS
    // Code shows a pair whose paths differ as a rename ("R", the other name struck through).
    const shown = await waitFor('the multi-file diff to open both revisions of since-a.txt', async () => {
      const docs = vscode.workspace.textDocuments.map((d) => d.uri).filter((u) => u.query.includes(aId));
      const previous = docs.find((u) => u.query.includes('kind=previous'));
      const result = docs.find((u) => u.query.includes('kind=result'));
      return previous && result ? { previous, result } : undefined;
    });
    assert.strictEqual(shown.previous.path, vscode.Uri.parse(sinceA.uri).path);
    assert.strictEqual(shown.result.path, shown.previous.path);
    const left = (await vscode.workspace.openTextDocument(reviewUri(second, 'previous', aId, sinceA))).getText();
    const right = (await vscode.workspace.openTextDocument(reviewUri(second, 'result', aId, sinceA))).getText();
    assert.strictEqual(left, revision1A);
    const differing = right.split('\n').filter((l, i) => l !== left.split('\n')[i]);
    assert.deepStrictEqual(differing, [`${revision1A.split('\n')[2]}${REVISED_MARK}`]);

    // Both files marked as reviewed in revision 2.
    for (const fileId of [aId, bId]) {
      await vscode.commands.executeCommand('agentRuntime.markReviewFileReviewed', { runId: second, fileId });
    }
    const marked = await vscode.commands.executeCommand<ReviewSummary>('agentRuntime.reviewChanges', { runId: second });
    assert.deepStrictEqual(marked?.files.map((f) => [f.relativePath, f.reviewed]).sort(), [
      ['since-a.txt', true],
      ['since-b.txt', true],
    ]);

    // Revision 3 changes since-a.txt again: its mark is gone; since-b.txt's stays.
    const revision2A = await revisionOf(client, second, aId);
    const third = await followUp(client, second, 'since-a.txt', 5, revision2A.split('\n')[4]);
    const latest = await vscode.commands.executeCommand<ReviewSummary>('agentRuntime.reviewChanges', { runId: third });
    assert.strictEqual(latest?.revision, 3);
    assert.deepStrictEqual(latest.files.map((f) => [f.relativePath, f.reviewed]).sort(), [
      ['since-a.txt', false],
      ['since-b.txt', true],
    ]);
  });
});
