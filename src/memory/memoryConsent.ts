// Who may change a memory entry through its file system: a write is the person's own save of the
// open memory document, or it asks; a delete through the file system always asks. Any extension
// can call `vscode.workspace.fs.writeFile` / `.delete` on an `agent-runtime-memory:` URI, and
// neither call says who made it, so the rule is on the provider. The question names the entry
// and shows the whole of what is at stake (askModal: Show All past a dialog, refused past that);
// the Delete Memory Entry command asks its own question and never comes through here.
import * as vscode from 'vscode';
import type { MemoryRecord } from '../api/resourceTypes';
import { askModal } from '../common/notify';
import type { Translate } from '../common/translate';
import { wholeEntryLines, wholeTextLines } from './memoryText';
import { parseMemoryUri } from './memoryUris';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

/** What the memory file system asks before it changes an entry for someone other than the person's save. */
export interface MemoryConsent {
  /** Whether writing `text` to `uri` is the person's save of that open document. */
  isPersonSave(uri: vscode.Uri, text: string): boolean;
  /** A write from elsewhere: true when the person agreed to replace `current` with `text`. */
  confirmWrite(current: MemoryRecord, text: string): Promise<boolean>;
  /** A delete through the file system: true when the person agreed. */
  confirmDelete(current: MemoryRecord): Promise<boolean>;
}

/**
 * A write is the person's save when the memory document is open in the editor and the write
 * carries exactly its text: VS Code saving what the person sees. (Whether the document is dirty
 * is not asked: the extension host may learn that after the save began.) Pure.
 */
export function isSaveOfOpenDocument(text: string, document: { getText(): string } | undefined): boolean {
  return document !== undefined && document.getText() === text;
}

/** The consent of the running extension: the open documents tell a save, questions are modals. */
export class EditorMemoryConsent implements MemoryConsent {
  isPersonSave(uri: vscode.Uri, text: string): boolean {
    const address = parseMemoryUri(uri);
    if (!address || address.serviceCopy) {
      return false;
    }
    return isSaveOfOpenDocument(
      text,
      vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()),
    );
  }

  async confirmWrite(current: MemoryRecord, text: string): Promise<boolean> {
    const save = t('Save to Memory');
    const lines = [
      ...wholeEntryLines(current, t),
      '',
      t('Its new text, which replaces all of the above:'),
      ...wholeTextLines(text, t),
    ];
    return (
      (await askModal(
        'warn',
        t('Another extension or command wants to change this memory. Save its text?'),
        lines,
        save,
      )) === save
    );
  }

  async confirmDelete(current: MemoryRecord): Promise<boolean> {
    const del = t('Delete');
    return (
      (await askModal(
        'warn',
        t('Another extension or command wants to delete this memory. Delete it? The agent will no longer know it.'),
        wholeEntryLines(current, t),
        del,
      )) === del
    );
  }
}
