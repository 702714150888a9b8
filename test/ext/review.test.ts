// Review Changes inside the extension host: files uploaded from the workspace, a run of the
// built-in agent that revises them, then apply one hunk, undo, apply all; and a file edited
// (unsaved) after upload is merged three ways, its conflicting line kept as the user's.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { applyHunks, computeHunks } from '../../src/review';
import type { ApplyOutcome } from '../../src/reviewUi/reviewApply';
import type { ReviewSummary } from '../../src/reviewUi/reviewCommands';
import { lines, revisionOf, untilRunEnds, uploadAndRun, workspaceFolder } from './reviewKit';
import { suiteWithService, waitFor } from './support';

async function textOf(uri: vscode.Uri): Promise<string> {
  return (await vscode.workspace.openTextDocument(uri)).getText();
}

describe('review changes', () => {
  const client = suiteWithService();
  let folder: vscode.Uri;
  before(() => {
    folder = workspaceFolder();
  });

  it('applies one hunk of one file, undoes it, then applies all, each as one undoable edit', async () => {
    const a = vscode.Uri.joinPath(folder, 'review-a.md');
    const b = vscode.Uri.joinPath(folder, 'review-b.txt');
    const aText = lines(14, 'alpha');
    const bText = lines(13, 'beta');
    await vscode.workspace.fs.writeFile(a, Buffer.from(aText));
    await vscode.workspace.fs.writeFile(b, Buffer.from(bText));
    const { runId, fileIds } = await uploadAndRun([a, b], `Review test ${Date.now()}`, client);
    const aId = fileIds.get('review-a.md');
    const bId = fileIds.get('review-b.txt');
    assert.ok(aId && bId);

    const summary = await vscode.commands.executeCommand<ReviewSummary>('agentRuntime.reviewChanges', { runId });
    assert.ok(summary, 'Review Changes returned nothing');
    const aFile = summary.files.find((f) => f.fileId === aId);
    const bFile = summary.files.find((f) => f.fileId === bId);
    assert.strictEqual(aFile?.status, 'ready', JSON.stringify(summary));
    assert.strictEqual(bFile?.status, 'ready');
    assert.strictEqual(aFile.changedSinceUpload, false);
    assert.strictEqual(aFile.uri, a.toString());

    const aRevised = await revisionOf(client, runId, aId);
    const hunks = computeHunks(aText, aRevised);
    assert.ok(hunks.length >= 2, 'the agent should change the file in several places');
    assert.deepStrictEqual(
      aFile.hunks?.map((h) => h.id),
      hunks.map((h) => h.id),
    );

    const second = hunks[1].id;
    const one = await vscode.commands.executeCommand<ApplyOutcome>('agentRuntime.applyReviewChanges', {
      runId,
      fileId: aId,
      hunkIds: [second],
    });
    assert.strictEqual(one?.applied, true, JSON.stringify(one));
    assert.strictEqual(await textOf(a), applyHunks(aText, hunks, [second]));
    assert.strictEqual(await textOf(b), bText, 'the other file is untouched');

    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(a));
    await vscode.commands.executeCommand('undo');
    await waitFor('undo to restore the file', async () => (await textOf(a)) === aText);

    // Save as Patch: every change not applied yet, paths relative to the workspace folder.
    const patchPath = vscode.Uri.joinPath(folder, 'review.patch');
    const saved = await vscode.commands.executeCommand<vscode.Uri>('agentRuntime.saveReviewPatch', {
      runId,
      target: patchPath.fsPath,
    });
    assert.strictEqual(saved?.fsPath, patchPath.fsPath);
    const patch = Buffer.from(await vscode.workspace.fs.readFile(patchPath)).toString('utf8');
    assert.match(patch, /^--- a\/review-a\.md$/m);
    assert.match(patch, /^\+\+\+ b\/review-b\.txt$/m);
    assert.ok(patch.includes(`+${aRevised.trimEnd().split('\n').pop() ?? ''}`), patch);
    await vscode.workspace.fs.delete(patchPath);

    const all = await vscode.commands.executeCommand<ApplyOutcome>('agentRuntime.applyReviewChanges', { runId });
    assert.strictEqual(all?.applied, true, JSON.stringify(all));
    assert.deepStrictEqual(all.files.map((f) => f.fileId).sort(), [aId, bId].sort());
    assert.strictEqual(await textOf(a), aRevised);
    assert.strictEqual(await textOf(b), await revisionOf(client, runId, bId));

    // Nothing is left: a second Apply All writes nothing and says why.
    const again = await vscode.commands.executeCommand<ApplyOutcome>('agentRuntime.applyReviewChanges', { runId });
    assert.strictEqual(again?.applied, false);
    assert.strictEqual(again.skipped.length, 2);
  });

  it('merges onto a file edited since upload (unsaved editor text) and keeps the conflicting line as the user wrote it', async () => {
    const c = vscode.Uri.joinPath(folder, 'review-c.md');
    const cText = lines(13, 'gamma');
    await vscode.workspace.fs.writeFile(c, Buffer.from(cText));
    const { runId, fileIds } = await uploadAndRun([c], `Three-way ${Date.now()}`, client);
    const cId = fileIds.get('review-c.md');
    assert.ok(cId);
    const revised = await revisionOf(client, runId, cId);
    const marked = revised.split('\n').find((l) => l.endsWith(' (reviewed)'));
    assert.ok(marked, 'the agent marks a middle line');
    const agentsLine = marked.slice(0, -' (reviewed)'.length);

    // Unsaved edits: the line the agent also changed (a conflict) and the second line (clean).
    const doc = await vscode.workspace.openTextDocument(c);
    await vscode.window.showTextDocument(doc);
    const edit = new vscode.WorkspaceEdit();
    const conflictLine = doc.getText().split('\n').indexOf(agentsLine);
    assert.ok(conflictLine > 1);
    edit.replace(c, doc.lineAt(conflictLine).range, `${agentsLine} edited by me`);
    edit.replace(c, doc.lineAt(1).range, 'gamma line 2 edited by me');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(doc.isDirty);

    const summary = await vscode.commands.executeCommand<ReviewSummary>('agentRuntime.reviewChanges', { runId });
    const file = summary?.files.find((f) => f.fileId === cId);
    assert.strictEqual(file?.status, 'ready', JSON.stringify(summary));
    assert.strictEqual(file.changedSinceUpload, true);
    assert.strictEqual(file.conflicts, 1);

    const outcome = await vscode.commands.executeCommand<ApplyOutcome>('agentRuntime.applyReviewChanges', {
      runId,
      fileId: cId,
    });
    assert.strictEqual(outcome?.applied, true, JSON.stringify(outcome));
    assert.strictEqual(outcome.files[0].conflicts, 1);
    const result = doc.getText().split('\n');
    assert.ok(result.includes(`${agentsLine} edited by me`), 'the conflicting line stays as the user wrote it');
    assert.ok(!result.includes(marked), "the agent's side of the conflict is not written");
    const revisedLines = revised.split('\n');
    assert.strictEqual(
      result[result.indexOf('gamma line 1') + 1],
      'gamma line 2 edited by me',
      "the user's clean edit is kept",
    );
    assert.strictEqual(result[0], revisedLines[0], "the agent's new first line is carried over");
    assert.strictEqual(
      result[result.length - 2],
      revisedLines[revisedLines.length - 2],
      "the agent's closing line is carried over",
    );
  });

  it('treats a revision of a file this machine never uploaded as a plain output', async () => {
    // Uploaded by another client: no origin here.
    const folderPath = folder.fsPath;
    const foreign = await client.uploadFile(`${folderPath}/notes.txt`, { purpose: 'task_input' });
    const task = await client.createTask({
      objective: `Foreign ${Date.now()}`,
      attachments: [{ type: 'document', fileId: foreign.id }],
    });
    assert.ok(task.run_id);
    const runId = task.run_id;
    await untilRunEnds(client, runId, 'the run', 25_000);
    const summary = await vscode.commands.executeCommand<ReviewSummary>('agentRuntime.reviewChanges', { runId });
    assert.deepStrictEqual(summary?.files, []);
    assert.ok(
      summary.problems.some((p) => p.code === 'unknownSource'),
      JSON.stringify(summary.problems),
    );
  });
});
