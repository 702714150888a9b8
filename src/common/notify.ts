// Every notification the extension shows goes through here, so every one is made inert
// (src/common/inertText.ts): VS Code renders `[label](command:...)` in a notification as a link
// that runs the command, and the messages carry text from the service. ESLint forbids calling
// vscode.window.show*Message anywhere else.
import * as vscode from 'vscode';
import { DIALOG_LINE_CHARS, DIALOG_MAX_CHARS, DIALOG_MAX_LINES } from './approvalText';
import { inert } from './inertText';

/** A whole notification is at most this long (our sentence plus the outside text in it). */
const MESSAGE_MAX_CHARS = 1000;

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

/** More than this (rows of DIALOG_LINE_CHARS) is not shown even in the full list: refused. */
export const FULL_LIST_MAX_ROWS = 20_000;
/** Outside text longer than this in all is refused whole (before any escaping work). */
const FULL_LIST_MAX_CHARS = FULL_LIST_MAX_ROWS * DIALOG_LINE_CHARS;
/** Rows of the dialog kept for the line that says where the rest is. */
const NOTE_ROWS = 4;

/** The rows a shown line takes in a dialog at its smallest width. */
const rowsOf = (line: string): number => Math.max(1, Math.ceil(Array.from(line).length / DIALOG_LINE_CHARS));

/**
 * The detail lines as a person reads them: each made inert whole, never cut. Undefined when the
 * whole is past what even the full list shows (FULL_LIST_MAX_ROWS).
 */
export function shownDetail(detailLines: readonly string[]): string[] | undefined {
  let chars = 0;
  let rows = 0;
  const shown: string[] = [];
  for (const line of detailLines) {
    chars += line.length;
    if (chars > FULL_LIST_MAX_CHARS) {
      return undefined;
    }
    // Escaping lengthens a character to at most 10, so this bound never cuts.
    const text = inert(line, line.length * 10 + 10);
    rows += rowsOf(text);
    if (rows > FULL_LIST_MAX_ROWS) {
      return undefined;
    }
    shown.push(text);
  }
  return shown;
}

/** How many of the lines a dialog shows whole (all when they fit; else keeping room for the note). */
function linesThatFit(lines: readonly string[]): number {
  let chars = 0;
  let rows = 0;
  for (let i = 0; i < lines.length; i++) {
    chars += lines[i].length + 1;
    rows += rowsOf(lines[i]);
    if (chars > DIALOG_MAX_CHARS || rows > DIALOG_MAX_LINES) {
      let keep = i;
      // Room for the note: drop lines from the end until the rest fits with it.
      while (keep > 0 && lines.slice(0, keep).reduce((n, l) => n + rowsOf(l), 0) > DIALOG_MAX_LINES - NOTE_ROWS) {
        keep--;
      }
      return keep;
    }
  }
  return lines.length;
}

/** A long line in rows of DIALOG_LINE_CHARS, so a list that shows one row per item shows all of it. */
function wrapped(lines: readonly string[]): string[] {
  const rows: string[] = [];
  for (const line of lines) {
    const chars = Array.from(line);
    for (let at = 0; at < chars.length; at += DIALOG_LINE_CHARS) {
      rows.push(chars.slice(at, at + DIALOG_LINE_CHARS).join(''));
    }
  }
  return rows;
}

/**
 * A modal question. `detail` lines (e.g. the files about to be sent) are made inert one by one
 * and kept on their own lines, never cut: a line longer than a dialog's width goes on over more
 * rows. What a dialog cannot hold whole (DIALOG_MAX_LINES rows, DIALOG_MAX_CHARS characters) is
 * never dropped silently: the dialog shows the first rows and says how many more there are, and
 * offers only Show All (every row in a list); the caller's buttons come after the person saw it.
 * Past FULL_LIST_MAX_ROWS the question is refused (the dialog says so; nothing is chosen).
 * Resolves to the chosen item, undefined on Cancel or Escape.
 */
export async function askModal<T extends string>(
  severity: 'info' | 'warn',
  message: string,
  detailLines: readonly string[],
  ...items: T[]
): Promise<T | undefined> {
  const show: Show = severity === 'warn' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const ask = <U extends string>(detail: string, buttons: U[]): Thenable<U | undefined> =>
    withInertItems(buttons, (shown) =>
      show(inert(message, MESSAGE_MAX_CHARS), { modal: true, detail: detail || undefined }, ...shown),
    );
  // A message too long for its line is cut there, and given whole as the detail's first lines.
  const cutMessage = Array.from(inert(message, MESSAGE_MAX_CHARS + 1)).length > MESSAGE_MAX_CHARS;
  const lines = shownDetail(cutMessage ? [message, '', ...detailLines] : detailLines);
  if (lines === undefined) {
    await ask(
      vscode.l10n.t(
        'This is too long to show in full (more than {0} lines), so it cannot be decided here. Nothing was done.',
        FULL_LIST_MAX_ROWS,
      ),
      [],
    );
    return undefined;
  }
  const fit = linesThatFit(lines);
  if (fit === lines.length) {
    return ask(lines.join('\n'), items);
  }
  const head = lines.slice(0, fit);
  const more = lines.length - fit;
  const showAll = vscode.l10n.t('Show All');
  let seen = false;
  for (;;) {
    const note = seen
      ? vscode.l10n.t('...and {0} more lines, every one listed in Show All.', more)
      : vscode.l10n.t(
          '...and {0} more lines not shown here. Show All lists every line; the choice comes after it.',
          more,
        );
    const buttons: string[] = seen ? [...items, showAll] : [showAll];
    const choice = await ask([...head, '', note].join('\n'), buttons);
    if (choice === undefined) {
      return undefined;
    }
    if (choice !== showAll) {
      return items.find((item) => item === choice);
    }
    await showAllLines(message, lines);
    seen = true;
  }
}

/**
 * Every line of a question in a read-only list, a long line over several rows (picking one does
 * nothing); back to the question after.
 */
async function showAllLines(message: string, lines: readonly string[]): Promise<void> {
  await vscode.window.showQuickPick(
    wrapped(lines).map((row) => ({ label: row })),
    {
      title: inert(message, DIALOG_MAX_CHARS / 10),
      placeHolder: vscode.l10n.t(
        'All {0} lines, in order. Type to find one; Enter or Escape goes back to the question.',
        lines.length,
      ),
      ignoreFocusOut: true,
    },
  );
}
