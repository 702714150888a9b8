// The files uploaded from this machine, remembered per base URL in globalState, so that the
// Files view still shows them when a server has no file list endpoint, and so that an artifact
// revising one of them can be shown against (and written back to) the workspace file it came from.
import type * as vscode from 'vscode';
import type { UploadOrigin } from '../review/types';

const STATE_KEY = 'agentRuntime.uploadedFiles';
const ORIGINS_KEY = 'agentRuntime.uploadOrigins';
/** Enough for a long working history without letting globalState grow without bound. */
const MAX_REMEMBERED = 500;

export class LocalFileIndex {
  constructor(
    private readonly state: vscode.Memento,
    private readonly baseUrl: () => string,
  ) {}

  /** Ids of files uploaded to the current service from here, newest first. */
  list(): string[] {
    return this.all()[this.baseUrl()] ?? [];
  }

  add(ids: readonly string[]): Thenable<void> {
    const all = this.all();
    const current = all[this.baseUrl()] ?? [];
    all[this.baseUrl()] = [...ids, ...current.filter((id) => !ids.includes(id))].slice(0, MAX_REMEMBERED);
    return this.state.update(STATE_KEY, all);
  }

  /**
   * Remembers where uploads came from (keyed by file id, so two files named alike in two
   * workspace folders stay apart) and lists their ids like add().
   */
  async addUploads(origins: readonly UploadOrigin[]): Promise<void> {
    await this.add(origins.map((o) => o.fileId));
    const all = this.allOrigins();
    const current = { ...(all[this.baseUrl()] ?? {}) };
    for (const origin of origins) current[origin.fileId] = { ...origin };
    // Keep the newest; the oldest origins go once there are more than the id list holds.
    const kept = Object.values(current)
      .sort((a, b) => (a.uploadedAt < b.uploadedAt ? 1 : a.uploadedAt > b.uploadedAt ? -1 : 0))
      .slice(0, MAX_REMEMBERED);
    all[this.baseUrl()] = Object.fromEntries(kept.map((o) => [o.fileId, o]));
    await this.state.update(ORIGINS_KEY, all);
  }

  /** Where the upload `fileId` came from, when it was uploaded from here to the current service. */
  origin(fileId: string): UploadOrigin | undefined {
    const found = this.allOrigins()[this.baseUrl()]?.[fileId];
    return isOrigin(found) && found.fileId === fileId ? { ...found } : undefined;
  }

  async remove(id: string): Promise<void> {
    const all = this.all();
    all[this.baseUrl()] = (all[this.baseUrl()] ?? []).filter((x) => x !== id);
    await this.state.update(STATE_KEY, all);
    const origins = this.allOrigins();
    const current = origins[this.baseUrl()];
    if (current && id in current) {
      const rest = { ...current };
      delete rest[id];
      origins[this.baseUrl()] = rest;
      await this.state.update(ORIGINS_KEY, origins);
    }
  }

  private all(): Record<string, string[]> {
    const value = this.state.get<unknown>(STATE_KEY);
    return typeof value === 'object' && value !== null ? { ...(value as Record<string, string[]>) } : {};
  }

  private allOrigins(): Record<string, Record<string, UploadOrigin>> {
    const value = this.state.get<unknown>(ORIGINS_KEY);
    return typeof value === 'object' && value !== null ? { ...(value as Record<string, Record<string, UploadOrigin>>) } : {};
  }
}

/** globalState is ours, but a value from an older version or a hand edit must not crash a review. */
function isOrigin(value: unknown): value is UploadOrigin {
  if (typeof value !== 'object' || value === null) return false;
  const o = value as Record<string, unknown>;
  return typeof o.fileId === 'string' && typeof o.uri === 'string' && typeof o.relativePath === 'string'
    && typeof o.sha256 === 'string' && typeof o.bytes === 'number' && typeof o.uploadedAt === 'string'
    && (o.workspaceFolder === undefined || typeof o.workspaceFolder === 'string');
}
