// The one sentence of VS Code for the Web for what needs this computer (its files, programs or
// Node): the web build's left-out commands (src/extension.web.ts) and its web twins say it.
import * as vscode from 'vscode';

/** The sentence for `title` (a command's or an action's name, as the user sees it). */
export function notInBrowser(title: string): string {
  return vscode.l10n.t(
    '{0} is not available in VS Code for the Web: it needs files or programs of this computer. Use VS Code on the desktop (or a remote window) for it; the README says what works in the browser ("In the browser").',
    title,
  );
}
