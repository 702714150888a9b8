// Every notification the extension shows goes through here, so every one is made inert
// (src/common/inertText.ts): VS Code renders `[label](command:...)` in a notification as a link
// that runs the command, and the messages carry text from the service. ESLint forbids calling
// vscode.window.show*Message anywhere else.
import * as vscode from 'vscode';
import { inert } from './inertText';

/** A whole notification is at most this long (our sentence plus the outside text in it). */
const MESSAGE_MAX_CHARS = 1000;
const DETAIL_MAX_CHARS = 4000;

type Show = <T extends string>(
  message: string,
  options: vscode.MessageOptions,
  ...items: T[]
) => Thenable<T | undefined>;

function shower(show: Show) {
  return <T extends string>(message: string, ...items: T[]): Thenable<T | undefined> =>
    withInertItems(items, (shown) => show(inert(message, MESSAGE_MAX_CHARS), {}, ...shown));
}

/**
 * Buttons are made inert too (a label may name an outside thing), and the caller gets back the
 * item it passed, not the label shown.
 */
function withInertItems<T extends string>(
  items: readonly T[],
  show: (shown: string[]) => Thenable<string | undefined>,
): Thenable<T | undefined> {
  const shown = items.map((item) => inert(item));
  return show(shown).then((choice) => (choice === undefined ? undefined : items[shown.indexOf(choice)]));
}

// Looked up at each call, not when this module loads: what vscode.window holds then is what shows.
export const notify = {
  error: shower((message, options, ...items) => vscode.window.showErrorMessage(message, options, ...items)),
  warn: shower((message, options, ...items) => vscode.window.showWarningMessage(message, options, ...items)),
  info: shower((message, options, ...items) => vscode.window.showInformationMessage(message, options, ...items)),
};

/**
 * A modal question. `detail` lines (e.g. the files about to be sent) are made inert one by one
 * and kept on their own lines. Resolves to the chosen item, undefined on Cancel or Escape.
 */
export function askModal<T extends string>(
  severity: 'info' | 'warn',
  message: string,
  detailLines: readonly string[],
  ...items: T[]
): Thenable<T | undefined> {
  const detail = detailLines
    .map((line) => inert(line))
    .join('\n')
    .slice(0, DETAIL_MAX_CHARS);
  const show: Show = severity === 'warn' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  return withInertItems(items, (shown) =>
    show(inert(message, MESSAGE_MAX_CHARS), { modal: true, detail: detail || undefined }, ...shown),
  );
}
