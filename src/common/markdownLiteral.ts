// The one escaping helper for Markdown the extension writes into VS Code's own Markdown surfaces
// (chat responses, progress lines, tool confirmations): a value from outside (the service, a
// model, a file name) renders as the same words and nothing else. Every ASCII punctuation
// character is backslash-escaped (CommonMark allows it for all of them), so no link, image,
// autolink (`https://`, `www.`, `a@b.c` all lose their `:` / `.` / `@`), HTML tag, code span,
// emphasis, heading, list or table can start from it; `$(name)` becomes `$ (name)`, never a
// theme icon; line breaks and the characters that hide or reorder text (bidi controls,
// zero-width) become visible marks, so a value can neither forge a line nor pose as other text;
// and it is cut to a bound. Pure.
import { HIDDEN } from './inertText';

const PUNCTUATION = /[!-/:-@[-`{-~]/g;

/** What one value may take in a chat line, by default (characters, before escaping). */
export const MARKDOWN_LITERAL_MAX_CHARS = 300;

/**
 * Outside text as one line of inert Markdown: `maxChars` characters at most (then `…`). Use it
 * for every value that did not come from the extension's own strings.
 */
export function markdownLiteral(value: unknown, maxChars: number = MARKDOWN_LITERAL_MAX_CHARS): string {
  let text = typeof value === 'string' ? value : value === undefined || value === null ? '' : safeJson(value);
  // Cut before escaping, so the work is bounded by maxChars and not by the server's field.
  const chars = Array.from(text.length > maxChars * 2 ? text.slice(0, maxChars * 2) : text);
  const cut = chars.length > maxChars || text.length > maxChars * 2;
  if (chars.length > maxChars) {
    chars.length = Math.max(1, maxChars - 1);
  }
  text = chars.join('');
  const escaped = text
    // Rendered, `\$\(x\)` would read `$(x)` again, which a surface drawing theme icons after
    // Markdown could take for one: the pair gets a space, as inert() gives it.
    .replace(/\$\(/g, '$ (')
    .replace(PUNCTUATION, '\\$&')
    .replace(/\r\n|\r|\n/g, ' ⏎ ')
    // `\\u202e` renders as the visible text \u202e (the backslash itself escaped).
    .replace(HIDDEN, (ch) => `\\\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return cut ? `${escaped}…` : escaped;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
