// How an approval reads in short places (a tree row, a notification): the arguments on one cut
// line that says what it left out ("+3 more keys", "cut"), the time left, and what happened to
// it; and the whole call, every key and byte, for the dialog or document a person decides in.
// Pure: the host and the webview share it. The results still carry server text, so every
// surface passes them through inert() or textContent.
import { inert, INERT_MAX_CHARS } from './inertText';
import { type Translate, untranslated } from './translate';

const MAX_ARGUMENT_DEPTH = 3;
/** A value of the summary keeps this many characters; a key, fewer. */
const MAX_VALUE_CHARS = 60;
const MAX_KEY_CHARS = 30;
/** Nested objects and arrays show this many entries. */
const MAX_NESTED_ENTRIES = 5;
/** Top-level keys looked at for the summary; the rest are only counted. */
const MAX_TOP_KEYS = 50;
/**
 * Runs of blanks this long are shown as `␣×N` in a summary: 60 spaces before `&& curl ... | sh`
 * must not push the tail out of the cut line, and collapsing them to one space would hide that
 * the command was padded.
 */
const BLANK_RUN = /[^\S\r\n]{4,}/gu;

/**
 * Characters that JSON text may hold raw but that hide, reorder or fake text (bidi controls,
 * zero-width and filler characters, tag characters, soft hyphens, line separators): written as
 * `\uXXXX` escapes, which is still the same JSON. Only strings can hold them, so replacing them
 * anywhere in JSON text keeps it valid.
 */
const JSON_HIDDEN =
  /[\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb]|\udb40[\udc00-\udfff]/g;

function escapeUnits(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    out += `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`;
  }
  return out;
}

/** In a one-line summary, controls too are written as escapes, so its length is what is shown. */
const SUMMARY_HIDDEN = new RegExp(`[\\u0000-\\u001f]|${JSON_HIDDEN.source}`, 'g');

interface Marks {
  cut: boolean;
}

function shorten(text: string, max: number, marks: Marks): string {
  const chars = Array.from(text.replace(BLANK_RUN, (run) => `\u2423\u00d7${run.length}`));
  if (chars.length <= max) {
    return chars.join('');
  }
  marks.cut = true;
  return `${chars.slice(0, max - 1).join('')}\u2026`;
}

function brief(value: unknown, depth: number, marks: Marks): string {
  if (value === null || value === undefined) {
    return String(value);
  }
  if (typeof value === 'string') {
    return JSON.stringify(shorten(value, MAX_VALUE_CHARS, marks));
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  if (typeof value !== 'object') {
    return typeof value;
  }
  const entries: Array<[string | undefined, unknown]> = [];
  if (Array.isArray(value)) {
    for (const v of value.slice(0, MAX_NESTED_ENTRIES + 1)) {
      entries.push([undefined, v]);
    }
  } else {
    for (const k in value) {
      if (!Object.prototype.hasOwnProperty.call(value, k)) {
        continue;
      }
      entries.push([k, (value as Record<string, unknown>)[k]]);
      if (entries.length > MAX_NESTED_ENTRIES) {
        break;
      }
    }
  }
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    return `${open}${close}`;
  }
  if (depth >= MAX_ARGUMENT_DEPTH) {
    marks.cut = true;
    return `${open}\u2026${close}`;
  }
  const shown = entries
    .slice(0, MAX_NESTED_ENTRIES)
    .map(([k, v]) =>
      k === undefined
        ? brief(v, depth + 1, marks)
        : `${shorten(k, MAX_KEY_CHARS, marks)}: ${brief(v, depth + 1, marks)}`,
    );
  if (entries.length > MAX_NESTED_ENTRIES) {
    marks.cut = true;
    shown.push('\u2026');
  }
  return `${open}${shown.join(', ')}${close}`;
}

function oneLine(text: string): string {
  return text.replace(SUMMARY_HIDDEN, escapeUnits).replace(/\s+/g, ' ').trim();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `path: "out.txt", mode: "overwrite"` on one line, at most `max` characters, saying what it
 * left out: `command: "ls␣×60&& curl …" (+3 more keys, cut)`. Keys past the line are counted,
 * never silently dropped; "cut" means a value, a nested entry or the line was shortened.
 */
export function shortArguments(args: unknown, max = 80, t: Translate = untranslated): string {
  if (args === undefined) {
    return '';
  }
  const notes = (hiddenKeys: number, cut: boolean): string => {
    const parts = [
      hiddenKeys === 1 ? t('+1 more key') : hiddenKeys > 1 ? t('+{0} more keys', hiddenKeys) : undefined,
      cut ? t('cut') : undefined,
    ].filter((p): p is string => p !== undefined);
    return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
  };
  const fit = (text: string, room: number): string => {
    const chars = Array.from(text);
    return chars.length <= room ? text : `${chars.slice(0, Math.max(1, room - 1)).join('')}\u2026`;
  };
  if (!isRecord(args)) {
    const marks: Marks = { cut: false };
    const text = oneLine(brief(args, 0, marks));
    if (!marks.cut && Array.from(text).length <= max) {
      return text;
    }
    const suffix = notes(0, true);
    return `${fit(text, max - suffix.length)}${suffix}`;
  }
  const keys = Object.keys(args);
  const parts = keys.slice(0, MAX_TOP_KEYS).map((key) => {
    const marks: Marks = { cut: false };
    const text = oneLine(`${shorten(key, MAX_KEY_CHARS, marks)}: ${brief(args[key], 1, marks)}`);
    return { text, cut: marks.cut };
  });
  let body = '';
  let shown = 0;
  let cut = false;
  for (const part of parts) {
    const candidate = shown === 0 ? part.text : `${body}, ${part.text}`;
    const suffix = notes(keys.length - shown - 1, cut || part.cut);
    if (Array.from(candidate).length + suffix.length > max) {
      break;
    }
    body = candidate;
    shown += 1;
    cut ||= part.cut;
  }
  if (shown === 0 && parts.length > 0) {
    // Not even the first key fits: its beginning, cut, and the count of the others.
    const suffix = notes(keys.length - 1, true);
    return `${fit(parts[0].text, max - suffix.length)}${suffix}`;
  }
  return `${body}${notes(keys.length - shown, cut)}`;
}

// ---- the whole call, for the dialog or the document a person decides in ----

/**
 * A value as indented JSON, whole: every key, every character (hidden ones as `\uXXXX`
 * escapes, so the text shows what the value is). Undefined when it cannot be written at all
 * (too large for a string).
 */
export function wholeJson(value: unknown): string | undefined {
  try {
    return (JSON.stringify(value ?? {}, null, 2) ?? '{}').replace(JSON_HIDDEN, escapeUnits);
  } catch {
    return undefined;
  }
}

/** Spaces after text in a run this long are written `␣×N` in the whole-call document. */
const DOCUMENT_SPACE_RUN = /(?<=\S) {16,}/g;

/**
 * The whole-call document's text: padding (a run of 16 spaces or more after text) as `␣×N`, so a
 * padded tail is not pushed past the columns an editor draws (VS Code stops at 10,000) and the
 * padding is seen for what it is. A `␣` of the call's own is written as its JSON escape `\u2423`
 * (it can only stand in a string), so every `␣×N` in the document is ours. `padded`: whether any
 * run was written so.
 */
export function paddingShown(json: string): { text: string; padded: boolean } {
  let padded = false;
  const text = json.replace(/\u2423/g, '\\u2423').replace(DOCUMENT_SPACE_RUN, (run) => {
    padded = true;
    return `\u2423\u00d7${run.length}`;
  });
  return { text, padded };
}

/** What a person reads before deciding on a tool call; all but the words are server text. */
export interface CallFacts {
  approvalId: string;
  tool?: string;
  runId?: string;
  /** The objective of the run's task. */
  objective?: string;
  reason?: string;
  /** e.g. "10:42 (4 min left)". */
  expires?: string;
}

/** The call line by line: tool, run, task, reason, expiry, then the whole arguments' JSON lines. */
export function wholeCallLines(facts: CallFacts, argumentsJson: string, t: Translate): string[] {
  return [
    t('Tool: {0}', facts.tool ?? '?'),
    t('Run: {0}', facts.runId ?? '?'),
    t('Task: {0}', facts.objective ?? t('(not known)')),
    t('Why: {0}', facts.reason ?? t('(no reason given)')),
    ...(facts.expires ? [t('Expires: {0}', facts.expires)] : []),
    t('Approval: {0}', facts.approvalId),
    t('Arguments:'),
    // Leading blanks as no-break spaces: a dialog would collapse the JSON's indentation.
    ...argumentsJson.split('\n').map((line) => line.replace(/^ +/, (indent) => '\u00a0'.repeat(indent.length))),
  ];
}

/** A modal dialog grows with its text and does not scroll: what fits in a small window. */
export const DIALOG_MAX_LINES = 24;
/** Characters per line of a dialog at its smallest width (500 px). */
export const DIALOG_LINE_CHARS = 60;
export const DIALOG_MAX_CHARS = 3000;

/**
 * Whether these lines fit in a modal's detail whole, as shown (made inert): no line longer than
 * inert() keeps (it would be cut), no more than the dialog shows without losing its top and
 * bottom. When they do not, the whole call goes to a document instead.
 */
export function fitsInDialog(lines: readonly string[]): boolean {
  let chars = 0;
  let rows = 0;
  for (const line of lines) {
    if (line.length > INERT_MAX_CHARS) {
      return false;
    } // escaping only lengthens it
    const shown = Array.from(inert(line, Number.MAX_SAFE_INTEGER)).length;
    if (shown > INERT_MAX_CHARS) {
      return false;
    }
    chars += shown + 1;
    rows += Math.max(1, Math.ceil(shown / DIALOG_LINE_CHARS));
    if (chars > DIALOG_MAX_CHARS || rows > DIALOG_MAX_LINES) {
      return false;
    }
  }
  return true;
}

/** "4 min left", "45 s left", "2 h left", "expired"; undefined when the time is unknown. */
export function timeLeft(expiresAt: string | undefined, now: number, t: Translate): string | undefined {
  if (typeof expiresAt !== 'string') {
    return undefined;
  }
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) {
    return undefined;
  }
  const ms = at - now;
  if (ms <= 0) {
    return t('expired');
  }
  const s = Math.ceil(ms / 1000);
  if (s < 60) {
    return t('{0} s left', s);
  }
  const min = Math.ceil(s / 60);
  if (min < 120) {
    return t('{0} min left', min);
  }
  const h = Math.round(min / 60);
  if (h < 48) {
    return t('{0} h left', h);
  }
  return t('{0} days left', Math.round(h / 24));
}

/** The words for an approval's status: "approved", "denied", "expired", "waiting"; others verbatim. */
export function approvalStatusWords(status: unknown, t: Translate): string {
  switch (status) {
    case 'approved':
      return t('approved');
    case 'denied':
      return t('denied');
    case 'expired':
      return t('expired');
    case 'pending':
      return t('waiting');
    default:
      return typeof status === 'string' ? status : t('unknown');
  }
}

/** What a 409 on a decision tells the person: "Approved elsewhere at 10:42." */
export function decidedElsewhere(
  status: unknown,
  decidedAt: string | undefined,
  t: Translate,
  formatTime: (iso: string) => string | undefined,
): string {
  const at = decidedAt === undefined ? undefined : formatTime(decidedAt);
  switch (status) {
    case 'approved':
      return at ? t('Approved elsewhere at {0}.', at) : t('Approved elsewhere.');
    case 'denied':
      return at ? t('Denied elsewhere at {0}.', at) : t('Denied elsewhere.');
    case 'expired':
      return t('This approval expired before it was decided; the run treated it as denied.');
    default:
      return t('This approval was already decided ({0}).', approvalStatusWords(status, t));
  }
}
