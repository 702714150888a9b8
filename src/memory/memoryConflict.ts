// A save that met 409 version_conflict: a compare editor shows the service's text (read-only, left)
// against the user's (right, still unsaved in its editor), and the user picks Overwrite (save the
// user's text over theirs) or Discard (take the service's text). Nothing is lost until they choose.
import * as vscode from 'vscode';
import { notify } from '../common/notify';
import type { Translate } from '../common/translate';
import type { MemoryConflict, MemoryFileSystem } from './memoryFileSystem';
import { memoryLabel } from './memoryText';
import { memoryUri, parseMemoryUri, serviceCopyUri } from './memoryUris';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

export type ConflictChoice = 'overwrite' | 'discard';

export class MemoryConflicts implements vscode.Disposable {
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly fs: MemoryFileSystem,
    log: vscode.LogOutputChannel,
  ) {
    this.subscription = fs.onDidConflict(
      (conflict) => void this.show(conflict).catch((err: unknown) => log.error(`Memory conflict: ${String(err)}`)),
    );
  }

  dispose(): void {
    this.subscription.dispose();
  }

  /** Opens the compare editor and asks; the answer (if any) resolves the conflict. */
  async show(conflict: MemoryConflict): Promise<void> {
    const address = parseMemoryUri(conflict.uri);
    if (!address) {
      return;
    }
    const title = t(
      '{0}: the service’s version {1} ↔ your text',
      memoryLabel(conflict.theirs, t),
      conflict.theirs.version ?? '?',
    );
    await vscode.commands.executeCommand('vscode.diff', serviceCopyUri(address.id), memoryUri(address.id), title, {
      preview: false,
    });
    const overwrite = t('Overwrite');
    const discard = t('Discard My Changes');
    const choice = await notify.warn(
      t(
        'Someone changed this memory meanwhile. Your text is still in the editor; the compare editor shows theirs on the left.',
      ),
      overwrite,
      discard,
    );
    if (choice === overwrite) {
      await this.resolve(address.id, 'overwrite');
    } else if (choice === discard) {
      await this.resolve(address.id, 'discard');
    }
  }

  /**
   * Overwrite: the user's text is saved over the service's current version. Discard: the document
   * is read again from the service. False when there is no conflict to resolve.
   */
  async resolve(id: string, choice: ConflictChoice): Promise<boolean> {
    const uri = memoryUri(id);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (choice === 'overwrite') {
      if (!this.fs.baseOnService(id)) {
        return false;
      }
      if (doc) {
        return doc.save();
      }
      return true;
    }
    if (!this.fs.conflictOf(id)) {
      return false;
    }
    this.fs.dropConflict(id);
    if (doc) {
      await vscode.window.showTextDocument(doc, { preview: false });
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    return true;
  }
}
