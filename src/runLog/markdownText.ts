// Server text as Markdown that renders as the same words and nothing else: every ASCII
// punctuation character is backslash-escaped (CommonMark allows it for all of them), so no link,
// image, autolink, HTML, emphasis, heading or list can start from it, and line breaks and hidden
// characters become visible marks so a value cannot forge a line of the transcript. Pure.

// Line breaks are replaced first, so the shared rule for hidden characters finds none of them;
// its marks (`\u202e`) are then escaped like any other punctuation and render as written.
import { visibleText } from '../common/visibleText';

const PUNCTUATION = /[!-/:-@[-`{-~]/g;

/** One line of inert Markdown text for any value from the server. */
export function markdownText(value: unknown): string {
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : safeJson(value);
  return visibleText(text.replace(/\r\n|\r|\n/g, ' ⏎ ')).replace(PUNCTUATION, '\\$&');
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
