// Server text as Markdown that renders as the same words and nothing else: every ASCII
// punctuation character is backslash-escaped (CommonMark allows it for all of them), so no link,
// image, autolink, HTML, emphasis, heading or list can start from it, and line breaks and hidden
// characters become visible marks so a value cannot forge a line of the transcript. Pure.

// Line breaks are replaced first, so the shared set of hidden characters finds none of them.
import { HIDDEN } from '../common/inertText';

const PUNCTUATION = /[!-/:-@[-`{-~]/g;

/** One line of inert Markdown text for any value from the server. */
export function markdownText(value: unknown): string {
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : safeJson(value);
  return text
    .replace(PUNCTUATION, '\\$&')
    .replace(/\r\n|\r|\n/g, ' ⏎ ')
    .replace(HIDDEN, (ch) => `\\\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
