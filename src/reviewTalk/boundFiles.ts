// Which run a workspace file shows, for comments to the agent on it: a file an apply wrote from a
// run's review, or a project run's file in the clone. Kept in the workspace state (a comment can
// be started after a reload), at most MAX_BOUND_FILES, the newest binding of a file winning.
// Plain Node (no vscode).
import type { CommentSide } from '../reviewComments/reviewComments';
import type { StateMemento } from './commentDrafts';

export const BOUND_FILES_KEY = 'agentRuntime.reviewBoundFiles.v1';
export const MAX_BOUND_FILES = 200;

export interface BoundFile {
  /** The workspace file's URI, as a string. */
  uri: string;
  runId: string;
  fileId: string;
  /** The path a comment on it names (docs/PROTOCOL.md, Review conversations). */
  path: string;
  side: CommentSide;
}

export class BoundFiles {
  private items: BoundFile[];

  constructor(private readonly memento: StateMemento) {
    this.items = readBound(memento.get<unknown>(BOUND_FILES_KEY));
  }

  get(uri: string): BoundFile | undefined {
    return this.items.find((b) => b.uri === uri);
  }

  async bind(files: readonly BoundFile[]): Promise<void> {
    const uris = new Set(files.map((f) => f.uri));
    this.items = [...this.items.filter((b) => !uris.has(b.uri)), ...files].slice(-MAX_BOUND_FILES);
    await this.memento.update(BOUND_FILES_KEY, this.items);
  }

  get size(): number {
    return this.items.length;
  }
}

function readBound(value: unknown): BoundFile[] {
  if (!Array.isArray(value)) {
    return [];
  }
  const out: BoundFile[] = [];
  for (const item of value.slice(-MAX_BOUND_FILES)) {
    if (typeof item !== 'object' || item === null) {
      continue;
    }
    const b = item as Record<string, unknown>;
    if (
      typeof b.uri === 'string' &&
      typeof b.runId === 'string' &&
      typeof b.fileId === 'string' &&
      typeof b.path === 'string' &&
      (b.side === 'agent' || b.side === 'base')
    ) {
      out.push({ uri: b.uri, runId: b.runId, fileId: b.fileId, path: b.path, side: b.side });
    }
  }
  return out;
}
