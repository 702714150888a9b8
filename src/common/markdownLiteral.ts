// The one escaping rule for outside text written as Markdown: VS Code's own Markdown surfaces
// (chat responses, progress lines, tool confirmations: `markdownLiteral`, cut to a bound) and the
// run log's Markdown export and transcript (`markdownText`, the whole value). A value from outside
// (the service, a model, a file name) renders as the same words and nothing else. Every ASCII
// punctuation character is backslash-escaped (CommonMark allows it for all of them), so no link,
// image, autolink (`https://`, `www.`, `a@b.c` all lose their `:` / `.` / `@`), HTML tag, code
// span, emphasis, heading, list or table can start from it; `$(name)` becomes `$ (name)`, never a
// theme icon; line breaks become ` ⏎ ` and the characters that hide or reorder text show as the
// marks of the shared rule (`visibleText`), so a value can neither forge a line nor pose as other
// text. Pure.
import { visibleText } from './visibleText';

const PUNCTUATION = /[!-/:-@[-`{-~]/g;

/** What one value may take in a chat line, by default (characters, before escaping). */
export const MARKDOWN_LITERAL_MAX_CHARS = 300;

/**
 * Outside text as one line of inert Markdown: `maxChars` characters at most (then `…`). Use it
 * for every value that did not come from the extension's own strings.
 */
export function markdownLiteral(value: unknown, maxChars: number = MARKDOWN_LITERAL_MAX_CHARS): string {
  const text = textOf(value);
  // Cut before escaping, so the work is bounded by maxChars and not by the server's field.
  const chars = Array.from(text.length > maxChars * 2 ? text.slice(0, maxChars * 2) : text);
  const cut = chars.length > maxChars || text.length > maxChars * 2;
  if (chars.length > maxChars) {
    chars.length = Math.max(1, maxChars - 1);
  }
  const escaped = escapeLine(chars.join(''));
  return cut ? `${escaped}…` : escaped;
}

/** The whole of an outside value as one line of inert Markdown (a run's transcript keeps it all). */
export function markdownText(value: unknown): string {
  return escapeLine(textOf(value));
}

function escapeLine(text: string): string {
  // Line breaks first, so the hidden-character rule finds none of them; its marks (`\u202e`) are
  // then escaped like any other punctuation (`\\u202e`) and render as written.
  return (
    visibleText(text.replace(/\r\n|\r|\n/g, ' ⏎ '))
      // Rendered, `\$\(x\)` would read `$(x)` again, which a surface drawing theme icons after
      // Markdown could take for one: the pair gets a space, as inert() gives it.
      .replace(/\$\(/g, '$ (')
      .replace(PUNCTUATION, '\\$&')
  );
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : safeJson(value);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
