// One review of a run: its artifacts turned into per-file changes (src/review does the work),
// each file reviewed against what the workspace holds now (an unsaved editor's text wins over
// the disk), and the read-only documents the diff editors show.
import * as vscode from 'vscode';
import type { ApiClient } from '../api/client';
import type { ArtifactRecord } from '../api/types';
import { describeErrorForUser } from '../commandSupport/errorText';
import { vscodeTranslate } from '../common/vscodeTranslate';
import type { FileChange, FileReview, OriginLookup, ReviewProblem, TaskAttachment } from '../review';
import { buildChangeSet, classifyArtifact, decodeText, reviewFile } from '../review';
import { reviewProjectPatches } from './projectReview';
import { type ReviewContent, reviewUri } from './reviewContent';
import { contentHash } from './reviewedMarks';
import { type OriginPlace, placeOf } from './reviewText';
import { revisionsOf } from './revisions';
import { listRunOutputs, runTaskOf, taskFileIds } from './runOutputs';

/** Largest content read for a review (artifact or file as sent). */
export const MAX_REVIEW_BYTES = 50 * 1024 * 1024;

export interface ReviewedFile {
  change: FileChange;
  /** The workspace file the upload came from. */
  uri: vscode.Uri;
  place: OriginPlace;
  review: FileReview;
  asSentBytes?: Uint8Array;
  /** The right side of "today against the agent's version". */
  agentUri: vscode.Uri;
  sentUri: vscode.Uri;
  conflictsUri: vscode.Uri;
  /** sha256 of the agent's version (what "Mark File as Reviewed" marks). */
  agentHash: string;
}

export interface ReviewSession {
  runId: string;
  /** The task's objective (the editors' title), when the server told it. */
  objective?: string;
  files: ReviewedFile[];
  problems: ReviewProblem[];
  /** Every artifact of the run read (the plain open/save actions are offered for those not reviewable). */
  artifacts: ArtifactRecord[];
  /** The run lists more outputs than a review reads: `artifacts` are the first ones only. */
  outputsCut: boolean;
  /** The run, then the revisions it follows up, newest first: its revision number is the length. */
  revisions: string[];
}

/** A run's changes, read and planned, before any workspace file is compared or any document set. */
export interface RunChanges {
  objective?: string;
  files: FileChange[];
  problems: ReviewProblem[];
  artifacts: ArtifactRecord[];
  outputsCut: boolean;
}

export interface SessionSources {
  client: ApiClient;
  originOf: OriginLookup;
  /** The files a task created here was given (undefined: not created here). */
  taskFiles(taskId: string): readonly string[] | undefined;
  content: ReviewContent;
}

export async function loadSession(
  sources: SessionSources,
  runId: string,
  signal: AbortSignal,
  report: (message: string) => void,
): Promise<ReviewSession> {
  const changes = await loadChanges(sources, runId, signal, report);
  const revisions = await revisionsOf(sources.client, runId, signal);
  sources.content.forgetRun(runId);
  const session: ReviewSession = {
    runId,
    objective: changes.objective,
    files: [],
    problems: changes.problems,
    artifacts: changes.artifacts,
    outputsCut: changes.outputsCut,
    revisions,
  };
  const openFolders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString());
  for (const change of changes.files) {
    report(vscode.l10n.t('Comparing {0}', change.origin.relativePath));
    const file: ReviewedFile = {
      change,
      uri: vscode.Uri.parse(change.origin.uri),
      place: placeOf(change.origin, openFolders),
      review: { status: 'gone', message: '' },
      asSentBytes: change.asSentBytes,
      agentUri: reviewUri(runId, 'agent', change.fileId, change.origin),
      sentUri: reviewUri(runId, 'sent', change.fileId, change.origin),
      conflictsUri: reviewUri(runId, 'conflicts', change.fileId, change.origin),
      agentHash: contentHash(change.agentBytes),
    };
    const commentPath = commentPathOf(change);
    sources.content.setCommentPath(file.agentUri, commentPath);
    sources.content.setCommentPath(file.sentUri, commentPath);
    if (file.place.kind === 'here') {
      await refreshFile(sources, file, signal);
    }
    session.files.push(file);
  }
  // A project run's files are read in the clone too: comments to the agent may go there (on the
  // agent's version when the clone already holds it).
  const inClone = session.files.filter((f) => f.change.origin.baseCommit !== undefined && f.place.kind === 'here');
  if (inClone.length > 0) {
    sources.content.bindWorkspaceFiles(
      inClone.filter((f) => f.review.status !== 'identical'),
      'base',
    );
    sources.content.bindWorkspaceFiles(
      inClone.filter((f) => f.review.status === 'identical'),
      'agent',
    );
  }
  return session;
}

/** What the agent's side is, in words: the editors' titles say it. */
export function agentSideOf(session: Pick<ReviewSession, 'revisions'>): string {
  return session.revisions.length > 1
    ? vscode.l10n.t("agent's revision {0}", session.revisions.length)
    : vscode.l10n.t("agent's version");
}

/** A run's changes (no document is set: a previous revision is read this way too). */
export async function loadChanges(
  sources: SessionSources,
  runId: string,
  signal: AbortSignal,
  report: (message: string) => void,
): Promise<RunChanges> {
  const { client, originOf } = sources;
  const outputs = await listRunOutputs(client, runId, signal, (count) =>
    report(vscode.l10n.t('{0} outputs listed', count)),
  );
  const artifacts = outputs.artifacts;
  const { taskId, task } = await runTaskOf(client, runId, signal);
  // A project run's patches (paths relative to the repository, base_commit) are planned in the
  // workspace's clone; the rest are reviewed against uploads as before.
  const project = await reviewProjectPatches(client, task, artifacts, signal);
  const uploadArtifacts = artifacts.filter((a) => !project.handled.has(a.id));
  // Only the files this task was given may be revised or patched by its runs.
  const fileIds = taskFileIds(task, taskId === undefined ? undefined : sources.taskFiles(taskId));
  const needsAttachments = uploadArtifacts.some((a) => classifyArtifact(a, originOf, fileIds).kind === 'patch');
  const attachments = needsAttachments ? await attachmentsOf(client, fileIds, signal) : undefined;
  const changeSet = await buildChangeSet(uploadArtifacts, {
    t: vscodeTranslate,
    originOf,
    taskFileIds: fileIds,
    attachments,
    readArtifact: async (a) =>
      (await client.readFileContent(a.file_id ?? a.id, { signal, maxBytes: MAX_REVIEW_BYTES })).content,
    readAsSent: async (fileId) =>
      (await client.readFileContent(fileId, { signal, maxBytes: MAX_REVIEW_BYTES })).content,
    describeError: describeErrorForUser,
    signal,
  });
  signal.throwIfAborted();
  const objective = typeof task?.objective === 'string' && task.objective.trim() ? task.objective : undefined;
  return {
    objective,
    files: [...changeSet.files, ...project.files],
    problems: [...project.problems, ...changeSet.problems],
    artifacts,
    outputsCut: outputs.cut,
  };
}

/** What a review comment on the file names: the repository path (projects), else the attachment's filename. */
function commentPathOf(change: FileChange): string {
  if (change.origin.baseCommit !== undefined) {
    return change.origin.relativePath;
  }
  if (change.source.kind === 'revision' && change.source.artifactName) {
    return change.source.artifactName;
  }
  return change.origin.relativePath.split('/').pop() || change.origin.relativePath;
}

/** Reviews the file again against what the workspace holds now, and updates its documents. */
export async function refreshFile(
  sources: SessionSources,
  file: ReviewedFile,
  signal?: AbortSignal,
): Promise<FileReview> {
  const workspaceBytes = await readWorkspace(file.uri);
  const input = {
    origin: file.change.origin,
    workspaceBytes,
    agentBytes: file.change.agentBytes,
    asSentBytes: file.asSentBytes,
    t: vscodeTranslate,
  };
  let review = reviewFile(input);
  if (review.status === 'needsAsSent') {
    file.asSentBytes = (
      await sources.client.readFileContent(file.change.fileId, { signal, maxBytes: MAX_REVIEW_BYTES })
    ).content;
    review = reviewFile({ ...input, asSentBytes: file.asSentBytes });
  }
  file.review = review;
  if (review.status === 'ready') {
    sources.content.set(file.agentUri, review.proposedBytes);
    if (file.asSentBytes) {
      sources.content.set(file.sentUri, file.asSentBytes);
    }
    if (review.conflictMarkedBytes) {
      sources.content.set(file.conflictsUri, review.conflictMarkedBytes);
    }
  }
  return review;
}

/**
 * The workspace file's bytes now, as the editor has them: the disk's bytes when an open document
 * says the same (so the hash and BOM are exact), else the document's text (unsaved edits, or a
 * save still being written); undefined when the file is gone and no document holds it.
 */
export async function readWorkspace(uri: vscode.Uri): Promise<Uint8Array | undefined> {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  let disk: Uint8Array | undefined;
  try {
    disk = await vscode.workspace.fs.readFile(uri);
  } catch (err) {
    if (!(err instanceof vscode.FileSystemError && (err.code === 'FileNotFound' || err.code === 'EntryNotFound'))) {
      throw err;
    }
  }
  if (!doc || doc.isClosed) {
    return disk;
  }
  const shown = doc.getText().replace(/\r\n/g, '\n');
  if (disk) {
    const decoded = decodeText(disk, vscodeTranslate);
    if (decoded.ok && decoded.value.text === shown) {
      return disk;
    }
  }
  return disk === undefined && !doc.isDirty ? undefined : new TextEncoder().encode(doc.getText());
}

/** The task's files with the names the server knows them by (a patch names files by those). */
async function attachmentsOf(
  client: ApiClient,
  fileIds: ReadonlySet<string>,
  signal: AbortSignal,
): Promise<TaskAttachment[] | undefined> {
  if (fileIds.size === 0) {
    return undefined;
  }
  try {
    const out: TaskAttachment[] = [];
    for (const fileId of fileIds) {
      const record = await client.getFile(fileId, { signal });
      if (typeof record.filename === 'string') {
        out.push({ fileId, filename: record.filename });
      }
    }
    return out;
  } catch (err) {
    if (signal.aborted) {
      throw err;
    }
    return undefined; // buildChangeSet reports the patch as `noAttachments`
  }
}
