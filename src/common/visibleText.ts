// The one escaping rule for text from outside the extension, whatever surface shows it:
// notifications, labels and quick picks (inert() in inertText.ts), the run panel's rows, details,
// approval card, outline and header (the webview's dom.ts), Markdown (markdownLiteral.ts) and the
// log. Characters that reorder, hide or break text are shown as visible marks instead of acting:
// `ls docs; \u202Erm -rf ~` reads as `ls docs; \u202erm -rf ~`, not reversed, and text hidden
// in tag characters or fillers shows up. Pure: no vscode, no DOM, no Node (the webview runs it too).

/**
 * Characters that hide, reorder or break text:
 * - C0 and C1 controls (line breaks and tabs included), DEL, U+2028 and U+2029;
 * - bidi: U+061C, U+200E and U+200F, the embeddings and overrides U+202A-U+202E, the isolates
 *   and deprecated format characters U+2066-U+206F;
 * - invisible: U+00AD soft hyphen, U+034F, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0,
 *   U+17B4, U+17B5, U+180E, U+200B-U+200D, U+2060-U+2065, U+FEFF, U+FFF9-U+FFFB,
 *   U+1D173-U+1D17A;
 * - tag characters U+E0000-U+E007F (they spell ASCII nobody sees);
 * - variation selectors U+FE00-U+FE0F and U+E0100-U+E01EF (runs of them carry hidden bytes);
 *   one U+FE0E or U+FE0F right after a visible character is kept (see visibleText).
 */
export const HIDDEN =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\u{1d173}-\u{1d17a}\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/gu;

/** One character of HIDDEN (not global: no lastIndex to carry between calls). */
const HIDDEN_ONE = new RegExp(HIDDEN.source, 'u');

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The visible mark of one hidden character: `\n`, `\r`, `\t`, `\u202e`, or `\u{e0041}` beyond U+FFFF. */
export function visibleEscape(ch: string): string {
  const named = NAMED[ch];
  if (named) {
    return named;
  }
  const code = ch.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export interface VisibleTextOptions {
  /** Keep line feeds as they are: a block that shows several lines (pretty-printed JSON). */
  lineBreaks?: boolean;
}

/**
 * `text` with every HIDDEN character replaced by its visible mark (visibleEscape). A single
 * U+FE0E/U+FE0F right after a visible character stays: it picks the text or emoji form of that
 * character (⚠️) and hides nothing; one after another selector, a hidden character or at the
 * start is marked. Everything else is unchanged, so what a person reads stays the same words.
 */
export function visibleText(text: string, options: VisibleTextOptions = {}): string {
  return text.replace(HIDDEN, (ch: string, offset: number, whole: string) => {
    if (ch === '\n' && options.lineBreaks) {
      return ch;
    }
    if ((ch === '\ufe0f' || ch === '\ufe0e') && presentationSelector(whole, offset)) {
      return ch;
    }
    return visibleEscape(ch);
  });
}

/** True when the selector at `offset` follows a visible character (not a hidden one, not the start). */
function presentationSelector(text: string, offset: number): boolean {
  if (offset === 0) {
    return false;
  }
  const low = text.charCodeAt(offset - 1);
  const start = low >= 0xdc00 && low <= 0xdfff && offset >= 2 ? offset - 2 : offset - 1;
  const previous = String.fromCodePoint(text.codePointAt(start) ?? 0);
  return !HIDDEN_ONE.test(previous);
}
