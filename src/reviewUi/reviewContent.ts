// The read-only `agent-runtime-review:` documents a review shows beside the workspace files:
// the agent's version (merged onto today's file when it changed since upload), the file as it
// was sent, and the merge with conflict markers. Held in memory for the review's lifetime.
import * as vscode from 'vscode';
import { ReadOnlyFileSystem } from '../common/readOnlyFileSystem';

export const REVIEW_SCHEME = 'agent-runtime-review';

/**
 * agent: the agent's version (merged onto today's file); sent: the file as sent; conflicts: the
 * merge with markers; result and previous: this revision's and the previous revision's output as
 * the agent left them (Changes Since Revision N).
 */
export type ReviewDocKind = 'agent' | 'sent' | 'conflicts' | 'result' | 'previous';

const KINDS: readonly string[] = ['agent', 'sent', 'conflicts', 'result', 'previous'];

/**
 * <the workspace file's path>?run=&kind=&file=: both sides of a diff have the same path, so VS
 * Code's multi-file diff shows the file once, by its name and folder, as modified (it calls a pair
 * whose paths differ a rename), and the package's label formatter shows the folder relative to
 * the workspace; the name keeps the language mode of the file. What the side is rides in the
 * query with the ids, which no label shows; the editors' titles say it in words. A file with no
 * workspace URI has `/<relative path>`.
 */
export function reviewUri(
  runId: string,
  kind: ReviewDocKind,
  fileId: string,
  file: { uri?: string; relativePath: string },
): vscode.Uri {
  const query = new URLSearchParams({ run: runId, kind, file: fileId }).toString();
  return vscode.Uri.from({ scheme: REVIEW_SCHEME, path: pathOf(file), query });
}

function pathOf(file: { uri?: string; relativePath: string }): string {
  let workspacePath: string | undefined;
  try {
    workspacePath = file.uri ? vscode.Uri.parse(file.uri, true).path : undefined;
  } catch {
    workspacePath = undefined; // not a URI: the relative path
  }
  return reviewDocPath(workspacePath, file.relativePath);
}

/** The workspace file's path when it has one; else `/<relative path>` without empty, `.` or `..` parts. */
export function reviewDocPath(workspacePath: string | undefined, relativePath: string): string {
  if (workspacePath !== undefined && workspacePath.startsWith('/') && workspacePath.length > 1) {
    return workspacePath;
  }
  const tail = relativePath
    .split('/')
    .filter((p) => p !== '' && p !== '.' && p !== '..')
    .join('/');
  return `/${tail || 'file'}`;
}

/** One document whatever its path says: the run, the kind and the file name it. */
function docKey(uri: vscode.Uri): string {
  const parsed = parseReviewUri(uri);
  return parsed ? `${parsed.runId}\n${parsed.kind}\n${parsed.fileId}` : uri.toString();
}

/** The run and file a review URI belongs to (the editor title buttons get that URI). */
export function parseReviewUri(uri: vscode.Uri): { runId: string; kind: ReviewDocKind; fileId: string } | undefined {
  if (uri.scheme !== REVIEW_SCHEME) {
    return undefined;
  }
  const params = new URLSearchParams(uri.query);
  const runId = params.get('run');
  const kind = params.get('kind');
  const fileId = params.get('file');
  if (!runId || !fileId || !kind || !KINDS.includes(kind)) {
    return undefined;
  }
  return { runId, kind: kind as ReviewDocKind, fileId };
}

/** A workspace file a person reads a run's changes in: written by an apply, or a project run's file in its clone. */
export interface BoundWorkspaceFile {
  uri: vscode.Uri;
  runId: string;
  fileId: string;
  /** The path a review comment on it names. */
  commentPath: string;
  /** `agent`: it holds the run's changes (applied); `base`: the version the run started from. */
  side: 'agent' | 'base';
}

export class ReviewContent extends ReadOnlyFileSystem {
  private readonly docs = new Map<string, { bytes: Uint8Array; mtime: number }>();
  /** The path a review comment on a document names (docs/PROTOCOL.md, Review conversations). */
  private readonly commentPaths = new Map<string, string>();
  private version = Date.now();
  private readonly bound = new vscode.EventEmitter<BoundWorkspaceFile[]>();
  /** Review comments may go on these workspace files too (src/reviewTalk keeps the list). */
  readonly onDidBindWorkspaceFiles = this.bound.event;

  set(uri: vscode.Uri, bytes: Uint8Array): void {
    const known = this.docs.get(docKey(uri));
    if (known && known.bytes.byteLength === bytes.byteLength && known.bytes.every((byte, i) => byte === bytes[i])) {
      return;
    }
    // A newer mtime makes an open editor read the document again.
    this.docs.set(docKey(uri), { bytes, mtime: ++this.version });
    if (known) {
      this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    }
  }

  setCommentPath(uri: vscode.Uri, path: string): void {
    this.commentPaths.set(docKey(uri), path);
  }

  /** The attachment's filename (uploads) or the repository path (projects) of a review document. */
  commentPath(uri: vscode.Uri): string | undefined {
    return this.commentPaths.get(docKey(uri));
  }

  /** Says which run a workspace file shows: each given as its review's agent document and workspace file. */
  bindWorkspaceFiles(files: readonly { uri: vscode.Uri; agentUri: vscode.Uri }[], side: 'agent' | 'base'): void {
    const out: BoundWorkspaceFile[] = [];
    for (const f of files) {
      const parsed = parseReviewUri(f.agentUri);
      const commentPath = this.commentPath(f.agentUri);
      if (parsed && commentPath !== undefined) {
        out.push({ uri: f.uri, runId: parsed.runId, fileId: parsed.fileId, commentPath, side });
      }
    }
    if (out.length > 0) {
      this.bound.fire(out);
    }
  }

  /** Forgets one run's documents (a new review of the run replaces them). */
  forgetRun(runId: string): void {
    const ofRun = (key: string) => key.startsWith(`${runId}\n`);
    for (const key of [...this.docs.keys()]) {
      if (ofRun(key)) {
        this.docs.delete(key);
      }
    }
    for (const key of [...this.commentPaths.keys()]) {
      if (ofRun(key)) {
        this.commentPaths.delete(key);
      }
    }
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const doc = this.docs.get(docKey(uri));
    if (!doc) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    return {
      type: vscode.FileType.File,
      ctime: doc.mtime,
      mtime: doc.mtime,
      size: doc.bytes.byteLength,
      permissions: vscode.FilePermission.Readonly,
    };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const doc = this.docs.get(docKey(uri));
    if (!doc) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    return doc.bytes;
  }

  override dispose(): void {
    super.dispose();
    this.bound.dispose();
    this.docs.clear();
    this.commentPaths.clear();
  }
}
