// The read-only `agent-runtime-review:` documents a review shows beside the workspace files:
// the agent's version (merged onto today's file when it changed since upload), the file as it
// was sent, and the merge with conflict markers. Held in memory for the review's lifetime.
import * as vscode from 'vscode';
import { ReadOnlyFileSystem } from '../common/readOnlyFileSystem';

export const REVIEW_SCHEME = 'agent-runtime-review';

export type ReviewDocKind = 'agent' | 'sent' | 'conflicts';

/** /<runId>/<kind>/<fileId>/<relative path>: the name keeps the language mode of the file. */
export function reviewUri(runId: string, kind: ReviewDocKind, fileId: string, relativePath: string): vscode.Uri {
  const tail =
    relativePath
      .split('/')
      .filter((p) => p !== '' && p !== '.' && p !== '..')
      .map(encodeURIComponent)
      .join('/') || 'file';
  return vscode.Uri.from({
    scheme: REVIEW_SCHEME,
    path: `/${encodeURIComponent(runId)}/${kind}/${encodeURIComponent(fileId)}/${tail}`,
  });
}

/** The run and file a review URI belongs to (the editor title buttons get that URI). */
export function parseReviewUri(uri: vscode.Uri): { runId: string; kind: ReviewDocKind; fileId: string } | undefined {
  if (uri.scheme !== REVIEW_SCHEME) {
    return undefined;
  }
  const [, runId, kind, fileId] = uri.path.split('/');
  if (!runId || !fileId || (kind !== 'agent' && kind !== 'sent' && kind !== 'conflicts')) {
    return undefined;
  }
  try {
    return { runId: decodeURIComponent(runId), kind, fileId: decodeURIComponent(fileId) };
  } catch {
    return undefined;
  }
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
    const known = this.docs.get(uri.toString());
    if (known && Buffer.from(known.bytes).equals(bytes)) {
      return;
    }
    // A newer mtime makes an open editor read the document again.
    this.docs.set(uri.toString(), { bytes, mtime: ++this.version });
    if (known) {
      this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    }
  }

  setCommentPath(uri: vscode.Uri, path: string): void {
    this.commentPaths.set(uri.toString(), path);
  }

  /** The attachment's filename (uploads) or the repository path (projects) of a review document. */
  commentPath(uri: vscode.Uri): string | undefined {
    return this.commentPaths.get(uri.toString());
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
    const prefix = `/${encodeURIComponent(runId)}/`;
    for (const key of [...this.docs.keys()]) {
      if (vscode.Uri.parse(key).path.startsWith(prefix)) {
        this.docs.delete(key);
      }
    }
    for (const key of [...this.commentPaths.keys()]) {
      if (vscode.Uri.parse(key).path.startsWith(prefix)) {
        this.commentPaths.delete(key);
      }
    }
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const doc = this.docs.get(uri.toString());
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
    const doc = this.docs.get(uri.toString());
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
