// What a person sees before a tool call is approved: the whole call (tool, run, the task's
// objective, the reason, the time left and every key and character of the arguments), in a
// modal dialog with Approve / Approve with Note... / Deny. A call too long for a dialog opens
// whole in a read-only editor first (the dialog says so and offers no Approve), then a
// notification asks for the decision while the editor can still be scrolled. A call too large
// to show at all can only be denied here. Nothing is ever cut without the person being told.
import * as vscode from 'vscode';
import type { ApprovalRecord } from '../api/types';
import {
  type CallFacts,
  fitsInDialog,
  paddingShown,
  timeLeft,
  wholeCallLines,
  wholeJson,
} from '../common/approvalText';
import { formatShortLocalTime } from '../common/format';
import { inert } from '../common/inertText';
import { askModal, notify } from '../common/notify';
import type { Translate } from '../common/translate';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

/** What the person chose; undefined: dismissed, nothing is decided. */
export type ReviewChoice = 'approve' | 'approveWithNote' | 'deny';

/** Larger than this, the call is not shown (an editor would choke): it can only be denied. */
export const MAX_WHOLE_CALL_CHARS = 2_000_000;
/** How much of a name the dialog's first line shows; the detail or the document has it whole. */
const TITLE_NAME_CHARS = 80;

export const APPROVAL_DOCUMENT_SCHEME = 'agent-runtime-approval';
/** The scheme of the documents of what a run at its cap spent on (capCommands.ts): not the approvals' own. */
export const SPEND_DOCUMENT_SCHEME = 'agent-runtime-spend';

/** Characters of a document's name at most (the editor's tab shows it). */
const DOCUMENT_NAME_CHARS = 120;

/**
 * A title as the last part of a document's path: the tab shows it as written, so a slash (which
 * would make folders of it) becomes a dash, hidden characters are escaped (inert) and it is cut.
 */
export function documentFileName(title: string): string {
  const name = inert(title, DOCUMENT_NAME_CHARS).replace(/[/\\]/g, '-').trim();
  return name === '' ? 'document' : name;
}

/** Read-only documents of one scheme (whole calls, or what a run spent on), the last few kept (an editor may reopen one). */
export class WholeCallDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private static readonly KEEP = 8;
  private readonly texts = new Map<string, string>();
  private readonly registration: vscode.Disposable;
  private serial = 0;

  /** One instance per scheme: a second provider of a scheme would answer the first one's documents empty. */
  constructor(private readonly scheme: string = APPROVAL_DOCUMENT_SCHEME) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }

  /** Opens `text` beside the active editor, as a read-only JSON document named after the approval. */
  async show(approvalId: string, text: string): Promise<void> {
    this.serial += 1;
    await this.open(`/${encodeURIComponent(approvalId).slice(0, 100)}-${this.serial}.json`, text);
  }

  /** Opens `text` beside the active editor, as a read-only document titled `title` in `language`. */
  async showTitled(title: string, text: string, language: string): Promise<vscode.TextDocument> {
    this.serial += 1;
    // The serial as a folder keeps each one its own document while the tab shows the title alone.
    return this.open(`/${this.serial}/${documentFileName(title)}`, text, language);
  }

  private async open(path: string, text: string, language?: string): Promise<vscode.TextDocument> {
    this.texts.set(path, text);
    while (this.texts.size > WholeCallDocuments.KEEP) {
      this.texts.delete(this.texts.keys().next().value as string);
    }
    let doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: this.scheme, path }));
    if (language !== undefined && doc.languageId !== language) {
      doc = await vscode.languages.setTextDocumentLanguage(doc, language);
    }
    await vscode.window.showTextDocument(doc, {
      preview: true,
      preserveFocus: false,
      viewColumn: vscode.ViewColumn.Beside,
    });
    return doc;
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}

/** The facts of a call as the dialog lists them. */
export function callFacts(approval: ApprovalRecord, objective: string | undefined, now = Date.now()): CallFacts {
  const left = timeLeft(approval.expires_at, now, t);
  const at =
    typeof approval.expires_at === 'string'
      ? (formatShortLocalTime(approval.expires_at) ?? approval.expires_at)
      : undefined;
  return {
    approvalId: approval.id,
    tool: typeof approval.tool === 'string' ? approval.tool : undefined,
    runId: typeof approval.run_id === 'string' ? approval.run_id : undefined,
    objective,
    reason: typeof approval.reason === 'string' ? approval.reason : undefined,
    expires: at === undefined ? left : left ? `${at} (${left})` : at,
  };
}

/**
 * Shows the whole call and asks Approve / Approve with Note... / Deny. Resolves to the choice,
 * undefined when the person dismissed it (nothing is sent).
 */
export async function reviewCall(
  approval: ApprovalRecord,
  objective: string | undefined,
  documents: WholeCallDocuments,
): Promise<ReviewChoice | undefined> {
  const approve = t('Approve');
  const withNote = t('Approve with Note...');
  const deny = t('Deny');
  const choiceOf = (picked: string | undefined): ReviewChoice | undefined =>
    picked === approve ? 'approve' : picked === withNote ? 'approveWithNote' : picked === deny ? 'deny' : undefined;
  const facts = callFacts(approval, objective);
  const tool = inert(facts.tool ?? t('a tool'), TITLE_NAME_CHARS);
  const argumentsJson = wholeJson(approval.arguments);
  const lines = argumentsJson === undefined ? undefined : wholeCallLines(facts, argumentsJson, t);

  if (lines && fitsInDialog(lines)) {
    return choiceOf(await askModal('warn', t('Approve this call of {0}?', tool), lines, approve, withNote, deny));
  }

  // Too long for a dialog: the dialog names the call and says where the whole of it is.
  const whole =
    lines === undefined
      ? undefined
      : wholeJson({
          approval_id: facts.approvalId,
          tool: facts.tool,
          run_id: facts.runId,
          task: facts.objective,
          reason: facts.reason,
          expires_at: approval.expires_at,
          arguments: approval.arguments ?? {},
        });
  const head = [
    t('Tool: {0}', inert(facts.tool ?? '?', TITLE_NAME_CHARS)),
    t('Run: {0}', inert(facts.runId ?? '?', TITLE_NAME_CHARS)),
    t('Approval: {0}', inert(facts.approvalId, TITLE_NAME_CHARS)),
  ];
  if (whole === undefined || whole.length > MAX_WHOLE_CALL_CHARS) {
    const size = whole?.length ?? Number.NaN;
    const message = Number.isFinite(size)
      ? t('The call of {0} is too large to show ({1} characters), so it cannot be approved here. Deny it?', tool, size)
      : t('The call of {0} is too large to show, so it cannot be approved here. Deny it?', tool);
    return (await askModal('warn', message, head, deny)) === deny ? 'deny' : undefined;
  }
  const open = t('Show Whole Call');
  const shown = paddingShown(whole);
  const lineCount = whole.split('\n').length;
  const choice = await askModal(
    'warn',
    t('The call of {0} is too long for this dialog.', tool),
    [
      ...head,
      t('Its whole text ({0} lines) opens in an editor; read it there, then decide.', lineCount),
      ...(shown.padded ? [t('Runs of 16 or more spaces are written there as ␣×N (N spaces).')] : []),
    ],
    open,
    deny,
  );
  if (choice === deny) {
    return 'deny';
  }
  if (choice !== open) {
    return undefined;
  }
  await documents.show(approval.id, shown.text);
  // Not modal: the editor can be scrolled while this waits.
  return choiceOf(
    await notify.warn(t('Decide on the call of {0} shown in the editor.', tool), approve, withNote, deny),
  );
}
