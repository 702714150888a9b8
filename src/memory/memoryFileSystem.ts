// Memory entries as text documents (scheme agent-runtime-memory:). Reading fetches the entry and
// remembers its version; saving sends PATCH {content, version}. When someone changed the entry
// meanwhile (409 version_conflict) nothing is lost: the save fails, the user's text stays in the
// editor, the service's text is kept as a read-only copy (`?service`) and `onConflict` is told, so
// a compare editor can offer Overwrite / Discard. Only the person's save of an open memory
// document writes without a question; any other write, and every delete, asks (memoryConsent.ts).
import * as vscode from 'vscode';
import type { ApiClient } from '../api/client';
import { isApiError } from '../api/errors';
import { conflictMemory } from '../api/resources';
import type { MemoryRecord } from '../api/resourceTypes';
import { describeErrorForUser } from '../commandSupport/errorText';
import type { Translate } from '../common/translate';
import type { MemoryConsent } from './memoryConsent';
import { tooLargeMessage } from './memoryText';
import { memoryUri, parseMemoryUri, serviceCopyUri } from './memoryUris';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

export interface MemoryConflict {
  uri: vscode.Uri;
  /** The service's current record (its text is at serviceCopyUri). */
  theirs: MemoryRecord;
}

export class MemoryFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  /** What the editor's text is based on: the entry as last read or saved. */
  private readonly known = new Map<string, MemoryRecord>();
  /** The service's record from the last conflict of each entry, until it is resolved. */
  private readonly theirs = new Map<string, MemoryRecord>();
  /** The write in progress per entry: writes of one entry go one after the other (see writeFile). */
  private readonly writing = new Map<string, Promise<void>>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  private readonly conflicted = new vscode.EventEmitter<MemoryConflict>();
  private readonly saved = new vscode.EventEmitter<MemoryRecord>();
  private readonly deleted = new vscode.EventEmitter<string>();
  readonly onDidChangeFile = this.changed.event;
  /** A save met 409 version_conflict. */
  readonly onDidConflict = this.conflicted.event;
  /** An entry was saved. */
  readonly onDidSave = this.saved.event;
  /** An entry was deleted through the file system (its id). */
  readonly onDidDelete = this.deleted.event;

  constructor(
    private readonly getClient: () => ApiClient,
    private readonly consent: MemoryConsent,
  ) {}

  dispose(): void {
    this.changed.dispose();
    this.conflicted.dispose();
    this.saved.dispose();
    this.deleted.dispose();
  }

  /** The service's text of an unresolved conflict. */
  conflictOf(id: string): MemoryRecord | undefined {
    return this.theirs.get(id);
  }

  knownRecord(id: string): MemoryRecord | undefined {
    return this.known.get(id);
  }

  /** Overwrite: the next save is based on the service's current version (so it replaces their text). */
  baseOnService(id: string): boolean {
    const current = this.theirs.get(id);
    if (!current) {
      return false;
    }
    const mine = this.known.get(id);
    this.known.set(id, { ...(mine ?? current), version: current.version });
    this.theirs.delete(id);
    return true;
  }

  /** Discard: forget the conflict; the document is reverted (read again) by the caller. */
  dropConflict(id: string): void {
    this.theirs.delete(id);
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri: memoryUri(id) }]);
  }

  /** A record just fetched or created elsewhere (the tree, Remember Selection). */
  remember(record: MemoryRecord): void {
    this.keep(record);
  }

  /**
   * The editor's base only moves forward: a read or a list that left before a save and answers
   * after it carries the older version, and basing the next save on it would make that save a
   * false conflict (and show the older text). Returns the record the editor is based on now.
   * An entry deleted and created again under the same id is another entry: when both records
   * name their creation time and they differ, the one created later wins whatever the versions
   * (the new entry starts again at a low version; a late read of the deleted one carries a higher
   * version and the earlier time, and must not become the base). Otherwise the version decides
   * (a 404 meanwhile forgets the known one, see `fetch`).
   */
  private keep(record: MemoryRecord): MemoryRecord {
    const mine = this.known.get(record.id);
    if (mine && olderThan(record, mine)) {
      return mine;
    }
    this.known.set(record.id, record);
    return record;
  }

  forget(id: string): void {
    this.known.delete(id);
    this.theirs.delete(id);
    this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri: memoryUri(id) }]);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const address = this.address(uri);
    if (address.serviceCopy) {
      const copy = this.theirs.get(address.id) ?? (await this.fetch(address.id, false));
      return { ...statOf(copy), permissions: vscode.FilePermission.Readonly };
    }
    // The record the editor is based on, not a fresh one: a newer mtime here would make VS Code
    // refuse the save itself; the version check of the PATCH is what finds a conflict.
    return statOf(this.known.get(address.id) ?? (await this.fetch(address.id, true)));
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const address = this.address(uri);
    if (address.serviceCopy) {
      const copy = this.theirs.get(address.id) ?? (await this.fetch(address.id, false));
      return new TextEncoder().encode(copy.content);
    }
    return new TextEncoder().encode((await this.fetch(address.id, true)).content);
  }

  /**
   * One entry's writes run one at a time, each on the version the one before left: an editor may
   * write the same document twice in quick succession (seen on VS Code 1.139), and two PATCHes
   * sent together with the same base version would make the second a false conflict. A write of
   * exactly the text the service already holds for that version sends nothing. Whether a write is
   * the person's save is decided when it arrives (the document may change while it waits).
   */
  writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const id = this.address(uri).id;
    const personSave = this.consent.isPersonSave(uri, decodeOrUndefined(content) ?? '\u0000');
    const before = this.writing.get(id) ?? Promise.resolve();
    const next = before.then(
      () => this.writeOne(uri, content, personSave),
      () => this.writeOne(uri, content, personSave),
    );
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.writing.set(id, settled);
    void settled.then(() => {
      if (this.writing.get(id) === settled) {
        this.writing.delete(id);
      }
    });
    return next;
  }

  private async writeOne(uri: vscode.Uri, content: Uint8Array, personSave: boolean): Promise<void> {
    const address = this.address(uri);
    if (address.serviceCopy) {
      throw vscode.FileSystemError.NoPermissions(t('This is the service’s copy of the memory; it cannot be edited.'));
    }
    const text = decodeOrUndefined(content);
    if (text === undefined) {
      throw vscode.FileSystemError.NoPermissions(t('A memory is UTF-8 text; this content is not.'));
    }
    const tooLarge = tooLargeMessage(text, t);
    if (tooLarge) {
      throw vscode.FileSystemError.NoPermissions(tooLarge);
    }
    const base = this.known.get(address.id) ?? (await this.fetch(address.id, true));
    if (base.content === text && !this.theirs.has(address.id)) {
      return;
    }
    if (!personSave && !(await this.consent.confirmWrite(base, text))) {
      throw vscode.FileSystemError.NoPermissions(
        t('The memory was not changed: this write was not your save of it, and it was not confirmed.'),
      );
    }
    if (base.version === undefined) {
      throw vscode.FileSystemError.Unavailable(
        t('The service did not say which version of this memory it holds, so it cannot be changed safely.'),
      );
    }
    try {
      const saved = await this.getClient().updateMemory(address.id, { content: text, version: base.version });
      this.keep(saved);
      this.theirs.delete(saved.id);
      this.saved.fire(saved);
    } catch (err) {
      const current = conflictMemory(err);
      if (current) {
        this.theirs.set(address.id, current);
        this.changed.fire([{ type: vscode.FileChangeType.Changed, uri: serviceCopyUri(address.id) }]);
        this.conflicted.fire({ uri, theirs: current });
        throw vscode.FileSystemError.Unavailable(
          t(
            'Someone changed this memory meanwhile (now version {0}). Your text is still in the editor: compare, then Overwrite or Discard.',
            current.version ?? '?',
          ),
        );
      }
      this.forgetIfGone(address.id, err);
      throw asFileSystemError(err, uri);
    }
  }

  async delete(uri: vscode.Uri): Promise<void> {
    const address = this.address(uri);
    if (address.serviceCopy) {
      throw vscode.FileSystemError.NoPermissions(uri);
    }
    // What the service holds now is what the person is asked about.
    const current = await this.fetch(address.id, true);
    if (!(await this.consent.confirmDelete(current))) {
      throw vscode.FileSystemError.NoPermissions(t('The memory was not deleted: it was not confirmed.'));
    }
    try {
      await this.getClient().deleteMemory(address.id);
    } catch (err) {
      this.forgetIfGone(address.id, err);
      throw asFileSystemError(err, uri);
    }
    this.forget(address.id);
    this.deleted.fire(address.id);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  private address(uri: vscode.Uri): { id: string; serviceCopy: boolean } {
    const address = parseMemoryUri(uri);
    if (!address) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    return address;
  }

  private async fetch(id: string, keep: boolean): Promise<MemoryRecord> {
    try {
      const record = await this.getClient().getMemory(id);
      return keep ? this.keep(record) : record;
    } catch (err) {
      if (keep) {
        this.forgetIfGone(id, err);
      }
      throw asFileSystemError(err, memoryUri(id));
    }
  }

  /** A 404: the entry is gone, so an entry created later under its id starts a base of its own. */
  private forgetIfGone(id: string, err: unknown): void {
    if (isApiError(err, 'not_found')) {
      this.known.delete(id);
    }
  }
}

/**
 * `record` is older than the known one: of an entry created before it (a late read of a deleted
 * entry), or, when the creation times do not tell, of a lower version of the same entry.
 */
function olderThan(record: MemoryRecord, known: MemoryRecord): boolean {
  const [a, b] = [Date.parse(known.created_at ?? ''), Date.parse(record.created_at ?? '')];
  if (Number.isFinite(a) && Number.isFinite(b) && a !== b) {
    return b < a;
  }
  return typeof known.version === 'number' && typeof record.version === 'number' && known.version > record.version;
}

function decodeOrUndefined(content: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    return undefined;
  }
}

function statOf(record: MemoryRecord): vscode.FileStat {
  const updated = Date.parse(record.updated_at ?? '');
  const created = Date.parse(record.created_at ?? '');
  return {
    type: vscode.FileType.File,
    ctime: Number.isFinite(created) ? created : 0,
    mtime: Number.isFinite(updated) ? updated : 0,
    size: new TextEncoder().encode(record.content).length,
  };
}

function asFileSystemError(err: unknown, uri: vscode.Uri): Error {
  if (err instanceof vscode.FileSystemError) {
    return err;
  }
  if (isApiError(err, 'not_found')) {
    return vscode.FileSystemError.FileNotFound(uri);
  }
  return vscode.FileSystemError.Unavailable(describeErrorForUser(err));
}
