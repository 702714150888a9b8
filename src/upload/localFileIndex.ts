// The files uploaded from this machine, remembered per base URL in globalState, so that the
// Files view still shows them when a server has no file list endpoint.
import type * as vscode from 'vscode';

const STATE_KEY = 'agentRuntime.uploadedFiles';
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

  remove(id: string): Thenable<void> {
    const all = this.all();
    all[this.baseUrl()] = (all[this.baseUrl()] ?? []).filter((x) => x !== id);
    return this.state.update(STATE_KEY, all);
  }

  private all(): Record<string, string[]> {
    const value = this.state.get<unknown>(STATE_KEY);
    return typeof value === 'object' && value !== null ? { ...(value as Record<string, string[]>) } : {};
  }
}
