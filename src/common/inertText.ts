// The one rule for showing text that came from outside the extension (the service's messages,
// names, ids, objectives, statuses, event fields; a workspace's settings): make it inert before
// it reaches any surface that parses links, icons or layout. Notifications turn
// `[label](command:...)` into a link that runs a command, quick picks, tree labels and the
// status bar draw `$(icon)`, and control, bidi and newline characters let text pose as other
// text (`txt.exe` shown as `exe.txt`, a forged second line). Pure, so every layer shares it.

/** What a notification or label shows at most of one outside value. */
export const INERT_MAX_CHARS = 300;

import { visibleText } from './visibleText';

// Hidden, bidi and control characters: the one rule every surface shares (visibleText.ts).
export { HIDDEN } from './visibleText';

/**
 * Outside text as a plain one-line string that no VS Code surface turns into a link, an icon or
 * reordered characters: hidden characters become visible escapes (visibleText: `\n`, `\u202e`,
 * `\u{e0041}`), the `](` of Markdown links and the `$(` of theme icons get a space, and anything
 * longer than `maxChars` is cut with an ellipsis (a 10 MB field must not reach a notification). What a
 * person reads stays the same words.
 */
export function inert(text: unknown, maxChars: number = INERT_MAX_CHARS): string {
  let value = typeof text === 'string' ? text : text === undefined || text === null ? '' : safeString(text);
  // Cut before escaping so the work is bounded by maxChars, not by the server's field size.
  let cut = false;
  if (value.length > maxChars * 2) {
    value = value.slice(0, maxChars * 2);
    cut = true;
  }
  value = visibleText(value)
    .replace(/\]\s*\(/g, '] (')
    .replace(/\$\(/g, '$ (');
  const chars = Array.from(value);
  if (chars.length > maxChars) {
    return `${chars.slice(0, Math.max(1, maxChars - 1)).join('')}…`;
  }
  return cut ? `${value}…` : value;
}

function safeString(value: unknown): string {
  try {
    return typeof value === 'object' ? (JSON.stringify(value) ?? '') : String(value);
  } catch {
    return '';
  }
}
