// How an approval reads in short places (a tree row, a notification): the arguments on one cut
// line, the time left, and what happened to it. Pure: the host and the webview share it. The
// results still carry server text, so every surface passes them through inert() or textContent.
import type { Translate } from './translate';

const MAX_ARGUMENT_DEPTH = 3;

function brief(value: unknown, depth: number): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 59)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (depth >= MAX_ARGUMENT_DEPTH) return Array.isArray(value) ? '[…]' : '{…}';
  if (Array.isArray(value)) return `[${value.slice(0, 5).map((v) => brief(v, depth + 1)).join(', ')}${value.length > 5 ? ', …' : ''}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.slice(0, 5).map(([k, v]) => `${k}: ${brief(v, depth + 1)}`).join(', ')}${entries.length > 5 ? ', …' : ''}}`;
  }
  return typeof value;
}

/** `path: "out.txt", mode: "overwrite"` on one line, at most `max` characters. */
export function shortArguments(args: unknown, max = 80): string {
  if (args === undefined) return '';
  let text = brief(args, 0);
  if (text.startsWith('{') && text.endsWith('}')) text = text.slice(1, -1);
  text = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** "4 min left", "45 s left", "2 h left", "expired"; undefined when the time is unknown. */
export function timeLeft(expiresAt: string | undefined, now: number, t: Translate): string | undefined {
  if (typeof expiresAt !== 'string') return undefined;
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) return undefined;
  const ms = at - now;
  if (ms <= 0) return t('expired');
  const s = Math.ceil(ms / 1000);
  if (s < 60) return t('{0} s left', s);
  const min = Math.ceil(s / 60);
  if (min < 120) return t('{0} min left', min);
  const h = Math.round(min / 60);
  if (h < 48) return t('{0} h left', h);
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
export function decidedElsewhere(status: unknown, decidedAt: string | undefined, t: Translate, formatTime: (iso: string) => string | undefined): string {
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
