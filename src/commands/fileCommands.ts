// Delete File (modal confirmation, multi-select) and Copy ID (any node, multi-select).
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { type FileRecord } from '../api/types';
import { type CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { describeErrorForUser } from '../commandSupport/errorText';
import { entityIdOf, fileOf, selectionOf } from '../commandSupport/nodeArgs';
import { Commands } from '../common/ids';
import { inert } from '../common/inertText';
import { askModal, notify } from '../common/notify';

export function registerFileCommands(deps: CommandDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(
      Commands.deleteFile,
      deps.guard('Delete file', (clicked?: unknown, selected?: unknown) => {
        const files = selectionOf(clicked, selected, deps.selection('files'))
          .map(fileOf)
          .filter((f): f is FileRecord => f !== undefined);
        return deleteFiles(deps, files);
      }),
    ),
    vscode.commands.registerCommand(
      Commands.copyId,
      deps.guard('Copy ID', async (clicked?: unknown, selected?: unknown) => {
        const ids = selectionOf(clicked, selected, deps.selection('any'))
          .map(entityIdOf)
          .filter((id): id is string => id !== undefined);
        if (ids.length === 0) {
          throw new UserFacingError(vscode.l10n.t('Choose an item in the Agent Runtime views first.'));
        }
        await vscode.env.clipboard.writeText(ids.join('\n'));
        vscode.window.setStatusBarMessage(
          inert(vscode.l10n.t('Copied {0}', ids.length === 1 ? ids[0] : vscode.l10n.t('{0} ids', ids.length))),
          3000,
        );
        return ids;
      }),
    ),
  ];
}

/** Returns the ids that were deleted (also when the server no longer had them). */
async function deleteFiles(deps: CommandDeps, files: FileRecord[]): Promise<string[]> {
  if (files.length === 0) {
    throw new UserFacingError(vscode.l10n.t('Choose a file in the Files view first.'));
  }
  const what = files.length === 1 ? `"${files[0].filename ?? files[0].id}"` : vscode.l10n.t('{0} files', files.length);
  const del = vscode.l10n.t('Delete');
  // From the palette the selection may be out of sight: several files are named one a line.
  const names = files.length === 1 ? [] : [...files.map((f) => f.filename ?? f.id), ''];
  const choice = await askModal(
    'warn',
    vscode.l10n.t('Delete {0} from the Agent Runtime service?', what),
    [...names, vscode.l10n.t('Tasks that already use it keep their results. This cannot be undone.')],
    del,
  );
  if (choice !== del) {
    return [];
  }
  const deleted: string[] = [];
  const failed: string[] = [];
  for (const file of files) {
    try {
      await deps.service.client.deleteFile(file.id);
      deleted.push(file.id);
    } catch (err) {
      // Already gone is what the user wanted.
      if (isApiError(err, 'not_found')) {
        deleted.push(file.id);
      } else {
        failed.push(`${file.filename ?? file.id}: ${describeErrorForUser(err)}`);
      }
    }
  }
  for (const id of deleted) {
    await deps.localFiles.remove(id);
  }
  deps.files.refresh();
  if (failed.length) {
    void notify.error(vscode.l10n.t('Some files could not be deleted: {0}', failed.join('; ')));
  } else {
    vscode.window.setStatusBarMessage(inert(vscode.l10n.t('Deleted {0}', what)), 3000);
  }
  return deleted;
}
