// How tree rows read: labels, descriptions (status · size · local time), accessibility labels
// and Markdown tooltips (id, purpose, bytes, created_at in local time and UTC). Pure: no
// vscode, so the rules are tested in plain mocha; the nodes wrap the results.
import type { ArtifactRecord, FileRecord, RunRecord, TaskRecord } from '../api/types';
import { statusLabel } from './statusIcons';
import type { Translate } from './translate';

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
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) return undefined;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value);
  return `${number} ${UNITS[unit]}`;
}

function parseTime(iso: string | undefined): Date | undefined {
  if (typeof iso !== 'string' || iso.trim() === '') return undefined;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Full local date and time; an unreadable timestamp is returned verbatim. */
export function formatLocalTime(iso: string | undefined, opts: TimeFormatOptions = {}): string | undefined {
  const date = parseTime(iso);
  if (!date) return iso?.trim() || undefined;
  return new Intl.DateTimeFormat(opts.locale, { dateStyle: 'medium', timeStyle: 'medium', timeZone: opts.timeZone }).format(date);
}

/** For a row's description: the time only when it is today (local), else date and time. */
export function formatShortLocalTime(iso: string | undefined, opts: TimeFormatOptions = {}): string | undefined {
  const date = parseTime(iso);
  if (!date) return iso?.trim() || undefined;
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: opts.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const today = day.format(opts.now ?? new Date()) === day.format(date);
  const style: Intl.DateTimeFormatOptions = today
    ? { timeStyle: 'short', timeZone: opts.timeZone }
    : { dateStyle: 'medium', timeStyle: 'short', timeZone: opts.timeZone };
  return new Intl.DateTimeFormat(opts.locale, style).format(date);
}

/** "2026-11-21 23:28:52 UTC"; an unreadable timestamp is returned verbatim. */
export function formatUtcTime(iso: string | undefined): string | undefined {
  const date = parseTime(iso);
  if (!date) return iso?.trim() || undefined;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** One line, whitespace collapsed, cut with an ellipsis (never inside a surrogate pair). */
export function shortenText(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  if (chars.length <= max) return line;
  return `${chars.slice(0, Math.max(1, max - 1)).join('').trimEnd()}…`;
}

// ---- labels ----

export const TASK_LABEL_MAX = 60;

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

export function fileLabel(file: FileRecord): string {
  return nonEmpty(file.filename) ? file.filename : file.id;
}

export function taskLabel(task: TaskRecord): string {
  return nonEmpty(task.objective) ? shortenText(task.objective, TASK_LABEL_MAX) : task.id;
}

export function runLabel(run: RunRecord): string {
  return run.id;
}

export function artifactLabel(artifact: ArtifactRecord): string {
  return nonEmpty(artifact.name) ? artifact.name : artifact.id;
}

// ---- descriptions: the parts, joined with " · " on screen and ", " for screen readers ----

function defined(parts: Array<string | undefined>): string[] {
  return parts.filter((p): p is string => p !== undefined && p !== '');
}

export function fileDescriptionParts(file: FileRecord, opts: TimeFormatOptions = {}): string[] {
  const purpose = nonEmpty(file.purpose) ? file.purpose : undefined;
  return defined([purpose, formatBytes(file.bytes, opts.locale), formatShortLocalTime(file.created_at, opts)]);
}

export function taskDescriptionParts(task: TaskRecord, t: Translate, opts: TimeFormatOptions = {}): string[] {
  return defined([statusLabel(task.status, t), formatShortLocalTime(task.created_at, opts)]);
}

export function runDescriptionParts(run: RunRecord, t: Translate, opts: TimeFormatOptions = {}): string[] {
  return defined([statusLabel(run.status, t), formatShortLocalTime(run.started_at ?? run.created_at, opts)]);
}

export function artifactDescriptionParts(artifact: ArtifactRecord, opts: TimeFormatOptions = {}): string[] {
  return defined([formatBytes(artifact.bytes, opts.locale), formatShortLocalTime(artifact.created_at, opts)]);
}

export function joinDescription(parts: readonly string[]): string {
  return parts.join(' · ');
}

/** What a screen reader says for a row: its kind, its label, then its description. */
export function accessibilityLabel(kind: string, label: string, parts: readonly string[]): string {
  return [kind, label, ...parts].join(', ');
}

// ---- tooltips (Markdown source; the node wraps it in a MarkdownString, untrusted) ----

/** Backslash-escapes Markdown and HTML punctuation so server text renders as plain text. */
export function escapeMarkdown(text: string): string {
  return text.replace(/\r?\n|\r/g, ' ').replace(/[\\`*_{}[\]()#+\-.!|<>~&:]/g, '\\$&');
}

/** An id as inline code; falls back to escaped text when it holds a backtick. */
function markdownCode(text: string): string {
  return text.includes('`') ? escapeMarkdown(text) : `\`${text.replace(/\r?\n|\r/g, ' ')}\``;
}

interface TooltipRow {
  label: string;
  value: string | undefined;
  code?: boolean;
}

function tooltipMarkdown(title: string, rows: TooltipRow[]): string {
  const lines = [`**${escapeMarkdown(title)}**`, ''];
  for (const row of rows) {
    if (row.value === undefined || row.value === '') continue;
    lines.push(`${escapeMarkdown(row.label)}: ${row.code ? markdownCode(row.value) : escapeMarkdown(row.value)}  `);
  }
  return lines.join('\n').trimEnd();
}

function sizeText(bytes: number | undefined, t: Translate, locale?: string): string | undefined {
  const short = formatBytes(bytes, locale);
  if (short === undefined || bytes === undefined) return undefined;
  const exact = new Intl.NumberFormat(locale).format(bytes);
  return bytes < 1024 ? t('{0} bytes', exact) : t('{0} ({1} bytes)', short, exact);
}

function createdRows(createdAt: string | undefined, t: Translate, opts: TimeFormatOptions): TooltipRow[] {
  return [
    { label: t('Created'), value: formatLocalTime(createdAt, opts) },
    { label: t('Created (UTC)'), value: parseTime(createdAt) ? formatUtcTime(createdAt) : undefined },
  ];
}

export function fileTooltip(file: FileRecord, t: Translate, opts: TimeFormatOptions = {}): string {
  return tooltipMarkdown(fileLabel(file), [
    { label: t('ID'), value: file.id, code: true },
    { label: t('Purpose'), value: nonEmpty(file.purpose) ? file.purpose : undefined },
    { label: t('Size'), value: sizeText(file.bytes, t, opts.locale) },
    { label: t('Content type'), value: nonEmpty(file.content_type) ? file.content_type : undefined },
    ...createdRows(file.created_at, t, opts),
  ]);
}

const TOOLTIP_OBJECTIVE_MAX = 500;

export function taskTooltip(task: TaskRecord, t: Translate, opts: TimeFormatOptions = {}): string {
  const title = nonEmpty(task.objective) ? shortenText(task.objective, TOOLTIP_OBJECTIVE_MAX) : task.id;
  const attachments = Array.isArray(task.attachments) ? task.attachments.length : undefined;
  return tooltipMarkdown(title, [
    { label: t('ID'), value: task.id, code: true },
    { label: t('Status'), value: statusLabel(task.status, t) },
    { label: t('Run'), value: nonEmpty(task.run_id) ? task.run_id : undefined, code: true },
    { label: t('Attachments'), value: attachments === undefined ? undefined : String(attachments) },
    ...createdRows(task.created_at, t, opts),
  ]);
}

function runErrorMessage(run: RunRecord): string | undefined {
  const error: unknown = run.error;
  if (error && typeof error === 'object' && 'message' in error && nonEmpty(error.message)) {
    return shortenText(error.message, TOOLTIP_OBJECTIVE_MAX);
  }
  return undefined;
}

export function runTooltip(run: RunRecord, t: Translate, opts: TimeFormatOptions = {}, objective?: string): string {
  return tooltipMarkdown(nonEmpty(objective) ? shortenText(objective, TOOLTIP_OBJECTIVE_MAX) : t('Run {0}', run.id), [
    { label: t('ID'), value: run.id, code: true },
    { label: t('Task'), value: nonEmpty(run.task_id) ? run.task_id : undefined, code: true },
    { label: t('Status'), value: statusLabel(run.status, t) },
    { label: t('Error'), value: runErrorMessage(run) },
    ...createdRows(run.created_at, t, opts),
    { label: t('Started'), value: formatLocalTime(run.started_at, opts) },
    { label: t('Finished'), value: formatLocalTime(run.completed_at, opts) },
  ]);
}

export function artifactTooltip(artifact: ArtifactRecord, t: Translate, opts: TimeFormatOptions = {}): string {
  return tooltipMarkdown(artifactLabel(artifact), [
    { label: t('ID'), value: artifact.id, code: true },
    { label: t('Run'), value: nonEmpty(artifact.run_id) ? artifact.run_id : undefined, code: true },
    { label: t('File'), value: nonEmpty(artifact.file_id) ? artifact.file_id : undefined, code: true },
    { label: t('Size'), value: sizeText(artifact.bytes, t, opts.locale) },
    { label: t('Content type'), value: nonEmpty(artifact.content_type) ? artifact.content_type : undefined },
    ...createdRows(artifact.created_at, t, opts),
  ]);
}
