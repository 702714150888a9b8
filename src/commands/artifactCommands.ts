// Open Artifact (text in a read-only editor, binary offered for saving) and Save Artifact As...
// (a save dialog, then a streamed download with progress and cancel).
import * as vscode from 'vscode';
import { safeFileName } from '../api/safeName';
import { type ArtifactRecord } from '../api/types';
import { MAX_OPEN_BYTES } from '../artifacts/artifactFileSystem';
import { artifactUri, isTextArtifact } from '../artifacts/artifactUris';
import { type CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { artifactOf, nodeOf } from '../commandSupport/nodeArgs';
import { formatBytes } from '../common/format';
import { Commands } from '../common/ids';
import { notify } from '../common/notify';

export interface ArtifactActions {
  open(artifact: ArtifactRecord): Promise<void>;
  save(artifact: ArtifactRecord): Promise<vscode.Uri | undefined>;
}

export function createArtifactActions(deps: CommandDeps): ArtifactActions {
  const open = async (artifact: ArtifactRecord): Promise<void> => {
    const tooBig = typeof artifact.bytes === 'number' && artifact.bytes > MAX_OPEN_BYTES;
    if (!isTextArtifact(artifact) || tooBig) {
      const saveAs = vscode.l10n.t('Save As...');
      const reason = tooBig
        ? vscode.l10n.t(
            '{0} is too large to open in the editor ({1}).',
            artifact.name ?? artifact.id,
            formatBytes(artifact.bytes) ?? '?',
          )
        : vscode.l10n.t('{0} is not a text file.', artifact.name ?? artifact.id);
      const choice = await notify.info(`${reason} ${vscode.l10n.t('Save it to disk instead?')}`, saveAs);
      if (choice === saveAs) {
        await save(artifact);
      }
      return;
    }
    const doc = await vscode.workspace.openTextDocument(artifactUri(artifact));
    await vscode.window.showTextDocument(doc, { preview: true });
  };

  const save = async (artifact: ArtifactRecord): Promise<vscode.Uri | undefined> => {
    const name = safeFileName(artifact.name, artifact.id);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      title: vscode.l10n.t('Save Artifact As'),
      saveLabel: vscode.l10n.t('Save'),
    });
    if (!target) {
      return undefined;
    }
    if (target.scheme !== 'file') {
      void notify.error(vscode.l10n.t('Artifacts can only be saved to a folder on disk.'));
      return undefined;
    }
    const fileId = artifact.file_id ?? artifact.id;
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Saving {0}', name), cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        let reported = 0;
        try {
          return await deps.service.client.downloadFile(fileId, target.fsPath, {
            signal: controller.signal,
            onProgress: (received, total) => {
              if (!total) {
                return progress.report({ message: formatBytes(received) ?? '' });
              }
              const pct = (received / total) * 100;
              progress.report({
                increment: pct - reported,
                message: `${formatBytes(received) ?? ''} / ${formatBytes(total) ?? ''}`,
              });
              reported = pct;
            },
          });
        } finally {
          sub.dispose();
        }
      },
    );
    deps.log.info(`Saved artifact ${artifact.id} to ${result.path} (${result.bytes} bytes)`);
    const openIt = vscode.l10n.t('Open');
    const reveal = vscode.l10n.t('Reveal in Explorer');
    void notify
      .info(vscode.l10n.t('Saved {0}.', target.path.slice(target.path.lastIndexOf('/') + 1)), openIt, reveal)
      .then((choice) => {
        if (choice === openIt) {
          void vscode.commands.executeCommand('vscode.open', target);
        }
        if (choice === reveal) {
          void vscode.commands.executeCommand('revealInExplorer', target);
        }
      });
    return target;
  };
  return { open, save };
}

export function registerArtifactCommands(deps: CommandDeps, actions: ArtifactActions): vscode.Disposable[] {
  const need = (given: unknown): ArtifactRecord => {
    const artifact = artifactOf(nodeOf(given, deps.selection('tasks'), artifactOf));
    if (!artifact) {
      throw new UserFacingError(vscode.l10n.t('Choose an artifact in the Tasks view first.'));
    }
    return artifact;
  };
  return [
    vscode.commands.registerCommand(
      Commands.openArtifact,
      deps.guard('Open artifact', (arg: unknown) => actions.open(need(arg))),
    ),
    vscode.commands.registerCommand(
      Commands.saveArtifact,
      deps.guard('Save artifact', (arg: unknown) => actions.save(need(arg))),
    ),
  ];
}
