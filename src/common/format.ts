// The pure formatting rules every surface shares (tree, notifications, status bar, the run
// panel's webview): sizes, durations, times, one-line text and template filling. No vscode, no
// DOM, so the host and the webview import the same functions and show the same words.

/** Fills `{0}`, `{1}`... in a (translated) template, as vscode.l10n.t does. */
export function fill(template: string, ...args: ReadonlyArray<string | number | boolean>): string {
  return template.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? whole : String(value);
  });
}

/** 950 ms, 12.3 s, 4 min 05 s, 2 h 03 min. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) {
    return '';
  }
  if (ms < 1000) {
    return `${Math.round(ms)} ms`;
  }
  const seconds = ms / 1000;
  if (seconds < 60) {
    return `${seconds.toFixed(1)} s`;
  }
  const totalSeconds = Math.floor(seconds);
  const minutes = Math.floor(totalSeconds / 60);
  if (minutes < 60) {
    return `${minutes} min ${String(totalSeconds % 60).padStart(2, '0')} s`;
  }
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

export interface TimeFormatOptions {
  /** BCP 47 locale; undefined = the runtime's default (VS Code's display language). */
  locale?: string;
  /** IANA zone; undefined = the machine's local zone. Tests pin it. */
  timeZone?: string;
  /** "Today" for the short form; defaults to the current time. */
  now?: Date;
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** 1024-based, as the Explorer shows sizes: "0 B", "900 B", "1.5 KB", "512 MB". */
export function formatBytes(bytes: number | undefined, locale?: string): string | undefined {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) {
    return undefined;
  }
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(
    value,
  );
  return `${number} ${UNITS[unit]}`;
}

export function parseTime(iso: string | undefined): Date | undefined {
  if (typeof iso !== 'string' || iso.trim() === '') {
    return undefined;
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Full local date and time; an unreadable timestamp is returned verbatim. */
export function formatLocalTime(iso: string | undefined, opts: TimeFormatOptions = {}): string | undefined {
  const date = parseTime(iso);
  if (!date) {
    return iso?.trim() || undefined;
  }
  return new Intl.DateTimeFormat(opts.locale, {
    dateStyle: 'medium',
    timeStyle: 'medium',
    timeZone: opts.timeZone,
  }).format(date);
}

/** For a row's description: the time only when it is today (local), else date and time. */
export function formatShortLocalTime(iso: string | undefined, opts: TimeFormatOptions = {}): string | undefined {
  const date = parseTime(iso);
  if (!date) {
    return iso?.trim() || undefined;
  }
  const day = new Intl.DateTimeFormat('en-CA', {
    timeZone: opts.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const today = day.format(opts.now ?? new Date()) === day.format(date);
  const style: Intl.DateTimeFormatOptions = today
    ? { timeStyle: 'short', timeZone: opts.timeZone }
    : { dateStyle: 'medium', timeStyle: 'short', timeZone: opts.timeZone };
  return new Intl.DateTimeFormat(opts.locale, style).format(date);
}

/** "2026-11-21 23:28:52 UTC"; an unreadable timestamp is returned verbatim. */
export function formatUtcTime(iso: string | undefined): string | undefined {
  const date = parseTime(iso);
  if (!date) {
    return iso?.trim() || undefined;
  }
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** One line, whitespace collapsed, cut with an ellipsis (never inside a surrogate pair). */
export function shortenText(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  if (chars.length <= max) {
    return line;
  }
  return `${chars
    .slice(0, Math.max(1, max - 1))
    .join('')
    .trimEnd()}…`;
}
