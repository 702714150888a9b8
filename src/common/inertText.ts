// The one rule for showing text that came from outside the extension (the service's messages,
// names, ids, objectives, statuses, event fields; a workspace's settings): make it inert before
// it reaches any surface that parses links, icons or layout. Notifications turn
// `[label](command:...)` into a link that runs a command, quick picks, tree labels and the
// status bar draw `$(icon)`, and control, bidi and newline characters let text pose as other
// text (`txt.exe` shown as `exe.txt`, a forged second line). Pure, so every layer shares it.

/** What a notification or label shows at most of one outside value. */
export const INERT_MAX_CHARS = 300;

// C0/C1 controls (newlines included), the bidi embeddings, overrides and isolates, the marks
// that flip direction, and the zero-width characters that hide text between visible letters.
/** Characters that hide, reorder or break text: escaped visibly wherever outside text is shown. */
export const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visibleEscape(ch: string): string {
  return NAMED[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Outside text as a plain one-line string that no VS Code surface turns into a link, an icon or
 * reordered characters: hidden characters become visible escapes (`\n`, `\u202e`), the
 * `](` of Markdown links and the `$(` of theme icons get a space, and anything longer than
 * `maxChars` is cut with an ellipsis (a 10 MB field must not reach a notification). What a
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
  value = value
    .replace(HIDDEN, visibleEscape)
    .replace(/\]\s*\(/g, '] (')
    .replace(/\$\(/g, '$ (');
  const chars = Array.from(value);
  if (chars.length > maxChars) return `${chars.slice(0, Math.max(1, maxChars - 1)).join('')}…`;
  return cut ? `${value}…` : value;
}

function safeString(value: unknown): string {
  try {
    return typeof value === 'object' ? JSON.stringify(value) ?? '' : String(value);
  } catch {
    return '';
  }
}
