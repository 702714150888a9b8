// Uploads send the user's files to a remote service, and commands can be invoked by more than
// the user's own clicks: another extension, a notebook's or a README's command link. When the
// files did not come from a selection the user made in this window's workspace (they lie
// outside its folders, or the caller skipped the prompts that would have shown them), the user
// confirms in a modal that lists exactly what will be sent, and where.
import * as vscode from 'vscode';
import { askModal } from '../common/notify';
import { isSingular } from '../common/vscodeTranslate';
import { normalize } from '../upload/pathNames';
import { realInside } from '../upload/realPaths';
import { looksSecretFile } from '../upload/secretFiles';

export interface UploadRequestOrigin {
  /** The caller filled in the answers the prompts would have asked (objective, purpose). */
  promptsSkipped: boolean;
  /**
   * Extension-host tests may skip the prompts without a dialog; nothing else may. That includes
   * files outside the workspace's folders: a test's own file system (a virtual workspace stand-in)
   * cannot be added as a folder without restarting the extension host the test runs in, and no
   * test can answer a modal.
   */
  trustedAutomation: boolean;
}

/**
 * Files outside every workspace folder of this window: by path, or (local files) by their real
 * path, so a file reached through a linked folder that points elsewhere counts as outside.
 */
export async function outsideWorkspace(uris: readonly vscode.Uri[]): Promise<vscode.Uri[]> {
  const localFolders = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => f.uri.fsPath);
  const outside: vscode.Uri[] = [];
  for (const uri of uris) {
    if (
      vscode.workspace.getWorkspaceFolder(uri) === undefined ||
      (uri.scheme === 'file' && (await realInside(uri.fsPath, localFolders)) === false)
    ) {
      outside.push(uri);
    }
  }
  return outside;
}

/** True when the upload may go on: no confirmation needed, or the user confirmed. */
export async function confirmUploadRequest(
  uris: readonly vscode.Uri[],
  serviceUrl: string,
  origin: UploadRequestOrigin,
): Promise<boolean> {
  const outside = await outsideWorkspace(uris);
  const needed = !origin.trustedAutomation && (outside.length > 0 || origin.promptsSkipped);
  if (!needed) {
    return true;
  }
  const upload = vscode.l10n.t('Upload');
  // Every file: what the dialog cannot hold, its Show All lists before Upload is offered.
  // A secret-looking file is then offered unticked (src/upload/sentFilesPrompts.ts); said here first.
  const lines = uris.map((uri) => {
    const name = displayPath(uri);
    return looksSecretFile(name, uri.path) ? vscode.l10n.t('{0} (looks like a secret; asked again)', name) : name;
  });
  const why =
    outside.length > 0
      ? vscode.l10n.t('{0} of them are outside this workspace.', outside.length)
      : vscode.l10n.t('This upload was requested by a command, not chosen in the Explorer.');
  const choice = await askModal(
    'warn',
    isSingular(uris.length)
      ? vscode.l10n.t('Upload 1 file to {0}?', serviceUrl)
      : vscode.l10n.t('Upload {0} files to {1}?', uris.length, serviceUrl),
    [why, '', ...lines],
    upload,
  );
  return choice === upload;
}

function displayPath(uri: vscode.Uri): string {
  const relative = vscode.workspace.asRelativePath(uri, true);
  return relative === uri.fsPath ? normalize(uri.fsPath) : relative;
}
