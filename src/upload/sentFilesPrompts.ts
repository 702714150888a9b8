// What a person sees of the files before they are sent: files that look like secrets are offered
// unticked (left out unless ticked), and a folder upload lists every file by name (what the
// dialog cannot hold in its Show All, before Upload is offered), never only a count.
import * as vscode from 'vscode';
import { formatBytes } from '../common/format';
import { inert } from '../common/inertText';
import { askModal } from '../common/notify';
import { isSingular } from '../common/vscodeTranslate';
import { listedNames, splitSecrets } from './secretFiles';
import { MAX_FILES_PER_BATCH, type PlannedFile, type UploadPlan } from './uploadPlan';

/** Secrets left out, named in the same dialog. */
const LISTED_LEFT_OUT = 5;

/**
 * The files that look like secrets (src/upload/secretFiles.ts) in a pick where none is ticked:
 * the plan keeps only the ticked ones. Undefined when the pick was dismissed (the upload stops).
 */
export async function leaveOutSecrets(
  plan: UploadPlan,
): Promise<{ plan: UploadPlan; leftOut: PlannedFile[] } | undefined> {
  const { secret } = splitSecrets(plan.files);
  if (secret.length === 0) {
    return { plan, leftOut: [] };
  }
  const items = secret.map((file) => ({
    label: inert(file.name),
    description: formatBytes(file.bytes),
    picked: false,
    file,
  }));
  const ticked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    ignoreFocusOut: true,
    matchOnDescription: true,
    title: vscode.l10n.t('{0} of the files look like they hold secrets (keys, tokens, passwords)', secret.length),
    placeHolder: vscode.l10n.t('Tick the ones to upload anyway; the others are left out. Escape cancels the upload.'),
  });
  if (ticked === undefined) {
    return undefined;
  }
  const kept = new Set(ticked.map((item) => item.file));
  const leftOut = secret.filter((file) => !kept.has(file));
  const files = plan.files.filter((file) => !leftOut.includes(file));
  return { plan: { ...plan, files, totalBytes: files.reduce((n, f) => n + f.bytes, 0) }, leftOut };
}

/**
 * A folder upload's confirmation: every file it sends by name (what the dialog cannot hold,
 * askModal's Show All lists before Upload is offered), what was left out, and the total.
 * True when the person chose to upload them.
 */
export async function confirmFolderFiles(plan: UploadPlan, leftOut: readonly PlannedFile[]): Promise<boolean> {
  const count = plan.files.length;
  const lines = plan.files.map((f) => f.name);
  lines.push('', vscode.l10n.t('Left out: the .git and node_modules folders.'));
  if (leftOut.length > 0) {
    const secrets = listedNames(
      leftOut.map((f) => f.name),
      LISTED_LEFT_OUT,
    );
    const names =
      secrets.listed.join(', ') + (secrets.more > 0 ? ` ${vscode.l10n.t('and {0} more', secrets.more)}` : '');
    lines.push(vscode.l10n.t('Left out as possible secrets (not ticked): {0}', names));
  }
  const size = formatBytes(plan.totalBytes) ?? '?';
  const message = plan.truncated
    ? vscode.l10n.t(
        'The selected folders hold more than {0} files; only the {1} listed here ({2}) would be uploaded. Go on?',
        MAX_FILES_PER_BATCH,
        count,
        size,
      )
    : isSingular(count)
      ? vscode.l10n.t('Upload this file ({0}) from the selected folders?', size)
      : vscode.l10n.t('Upload these {0} files ({1}) from the selected folders?', count, size);
  const upload = isSingular(count) ? vscode.l10n.t('Upload 1 File') : vscode.l10n.t('Upload {0} Files', count);
  return (await askModal('warn', message, lines, upload)) === upload;
}
