// How tree rows read: labels, descriptions (status · size · local time), accessibility labels
// and tooltips (id, purpose, bytes, created_at in local time and UTC). Every value from the
// server passes through inert() (src/common/inertText.ts) here, so no row, description or
// tooltip shows a link, an icon or reordered text. Tooltips are plain text, never Markdown.
// Pure: no vscode, so the rules are tested in plain mocha; the nodes wrap the results.
import type { ArtifactRecord, FileRecord, RunRecord, TaskRecord } from '../api/types';
import {
  formatBytes,
  formatLocalTime,
  formatShortLocalTime,
  formatUtcTime,
  parseTime,
  shortenText,
  type TimeFormatOptions,
} from '../common/format';
import { inert } from '../common/inertText';
import { checkMoney, describeMoney, moneyText } from '../common/money';
import type { Translate } from '../common/translate';
import { statusLabel } from '../runEvents/runStatus';
import { spendMeter, spendWords } from '../runEvents/spendMeter';

export type { TimeFormatOptions } from '../common/format';

// ---- labels ----

export const TASK_LABEL_MAX = 60;
const TOOLTIP_TEXT_MAX = 500;

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** A server value as one inert line, or undefined when it is not a non-empty string. */
function text(value: unknown, max?: number): string | undefined {
  return nonEmpty(value) ? inert(max === undefined ? value : shortenText(value, max)) : undefined;
}

export function fileLabel(file: FileRecord): string {
  return text(file.filename) ?? inert(file.id);
}

export function taskLabel(task: TaskRecord): string {
  return text(task.objective, TASK_LABEL_MAX) ?? inert(task.id);
}

/**
 * A run as people read it: its number among the task's runs when the whole list is known
 * ("Run 2"), else when it started; never the raw id, which stays in the tooltip and Copy ID.
 */
export function runLabel(run: RunRecord, t: Translate, number?: number, opts: TimeFormatOptions = {}): string {
  if (number !== undefined) {
    return t('Run {0}', number);
  }
  const started = formatShortLocalTime(run.started_at ?? run.created_at, opts);
  return started ? t('Run started {0}', inert(started)) : t('Run');
}

export function artifactLabel(artifact: ArtifactRecord): string {
  return text(artifact.name) ?? inert(artifact.id);
}

// ---- descriptions: the parts, joined with " · " on screen and ", " for screen readers ----

function defined(parts: Array<string | undefined>): string[] {
  return parts.filter((p): p is string => p !== undefined && p !== '').map((p) => inert(p));
}

export function fileDescriptionParts(file: FileRecord, opts: TimeFormatOptions = {}): string[] {
  const purpose = nonEmpty(file.purpose) ? file.purpose : undefined;
  return defined([purpose, formatBytes(file.bytes, opts.locale), formatShortLocalTime(file.created_at, opts)]);
}

export function taskDescriptionParts(task: TaskRecord, t: Translate, opts: TimeFormatOptions = {}): string[] {
  return defined([statusLabel(task.status, t), formatShortLocalTime(task.created_at, opts)]);
}

export function runDescriptionParts(run: RunRecord, t: Translate, opts: TimeFormatOptions = {}): string[] {
  return defined([
    statusLabel(run.status, t),
    formatShortLocalTime(run.started_at ?? run.created_at, opts),
    run.budget === undefined ? costText(run) : spendAgainstCap(run, t),
  ]);
}

/**
 * A capped run's cost against its cap (docs/PROTOCOL.md, Budgets), as the run panel's meter says it
 * (src/runEvents/spendMeter.ts): "0.04 of 0.05 USD, 80 %". A cap or cost that is not a usable
 * amount, or a cost in another currency, is shown as received with a note, never compared. While a
 * panel streams the run, the record holds the stream's newest cost and cap (the RunStore's).
 */
export function spendAgainstCap(run: RunRecord, t: Translate): string | undefined {
  const cap = checkMoney(run.budget);
  const cost = checkMoney((run as { usage?: { cost?: unknown } }).usage?.cost);
  if (!cap.valid) {
    return t('cap {0}', describeMoney(cap, t));
  }
  if (!cost.valid && (run as { usage?: unknown }).usage === undefined) {
    return t('cap {0}', moneyText(cap));
  }
  return spendMeter({ cap: run.budget, cost: (run as { usage?: { cost?: unknown } }).usage?.cost }, spendWords(t))
    ?.text;
}

export function artifactDescriptionParts(artifact: ArtifactRecord, opts: TimeFormatOptions = {}): string[] {
  return defined([formatBytes(artifact.bytes, opts.locale), formatShortLocalTime(artifact.created_at, opts)]);
}

export function joinDescription(parts: readonly string[]): string {
  return parts.join(' · ');
}

/** A run's cost when the server reports one (docs/PROTOCOL.md, Usage and spend): "0.42 USD". */
export function costText(run: RunRecord): string | undefined {
  const cost: unknown = (run as { usage?: { cost?: unknown } }).usage?.cost;
  if (!cost || typeof cost !== 'object') {
    return undefined;
  }
  const { amount, currency } = cost as { amount?: unknown; currency?: unknown };
  if (typeof amount !== 'string' || !/^-?\d+(\.\d+)?$/.test(amount)) {
    return undefined;
  }
  return typeof currency === 'string' && /^[A-Za-z]{3}$/.test(currency)
    ? `${amount} ${currency.toUpperCase()}`
    : amount;
}

/**
 * What a screen reader says for a row: its label first (the visible name leads the spoken one,
 * WCAG 2.5.3 "label in name", which axe checks), then its kind, then its description.
 */
export function accessibilityLabel(kind: string, label: string, parts: readonly string[]): string {
  return [label, kind, ...parts].join(', ');
}

// ---- tooltips: plain text, one "Label: value" line each ----

interface TooltipRow {
  label: string;
  value: string | undefined;
}

function tooltipText(title: string, rows: TooltipRow[]): string {
  const lines = [inert(title, TOOLTIP_TEXT_MAX), ''];
  for (const row of rows) {
    if (row.value === undefined || row.value === '') {
      continue;
    }
    lines.push(`${row.label}: ${inert(row.value, TOOLTIP_TEXT_MAX)}`);
  }
  return lines.join('\n').trimEnd();
}

function sizeText(bytes: number | undefined, t: Translate, locale?: string): string | undefined {
  const short = formatBytes(bytes, locale);
  if (short === undefined || bytes === undefined) {
    return undefined;
  }
  const exact = new Intl.NumberFormat(locale).format(bytes);
  return bytes < 1024 ? t('{0} bytes', exact) : t('{0} ({1} bytes)', short, exact);
}

function createdRows(createdAt: string | undefined, t: Translate, opts: TimeFormatOptions): TooltipRow[] {
  return [
    { label: t('Created'), value: formatLocalTime(createdAt, opts) },
    { label: t('Created (UTC)'), value: parseTime(createdAt) ? formatUtcTime(createdAt) : undefined },
  ];
}

function id(value: unknown): string | undefined {
  return nonEmpty(value) ? value : undefined;
}

export function fileTooltip(file: FileRecord, t: Translate, opts: TimeFormatOptions = {}): string {
  return tooltipText(fileLabel(file), [
    { label: t('ID'), value: file.id },
    { label: t('Purpose'), value: id(file.purpose) },
    { label: t('Size'), value: sizeText(file.bytes, t, opts.locale) },
    { label: t('Content type'), value: id(file.content_type) },
    ...createdRows(file.created_at, t, opts),
  ]);
}

/** `projectLabel`: the project's name (made inert by the caller); the id is not a name a person knows. */
export function taskTooltip(
  task: TaskRecord,
  t: Translate,
  opts: TimeFormatOptions = {},
  projectLabel?: string,
): string {
  const title = nonEmpty(task.objective) ? shortenText(task.objective, TOOLTIP_TEXT_MAX) : task.id;
  const attachments = Array.isArray(task.attachments) ? task.attachments.length : undefined;
  return tooltipText(title, [
    { label: t('ID'), value: task.id },
    { label: t('Status'), value: statusLabel(task.status, t) },
    { label: t('Run'), value: id(task.run_id) },
    { label: t('Attachments'), value: attachments === undefined ? undefined : String(attachments) },
    { label: t('Project'), value: projectLabel ?? id(task.project_id) },
    { label: t('Commit'), value: contextText(task.context) },
    ...createdRows(task.created_at, t, opts),
  ]);
}

/** A project task's `context`: `<short commit> (<branch>)`, either alone, or nothing. */
function contextText(context: unknown): string | undefined {
  if (!context || typeof context !== 'object') {
    return undefined;
  }
  const { ref, commit } = context as { ref?: unknown; commit?: unknown };
  const short = nonEmpty(commit) ? commit.slice(0, 12) : undefined;
  const branch = nonEmpty(ref) ? ref : undefined;
  if (short && branch) {
    return `${short} (${branch})`;
  }
  return short ?? branch;
}

function runErrorMessage(run: RunRecord): string | undefined {
  const error: unknown = run.error;
  if (error && typeof error === 'object' && 'message' in error && nonEmpty(error.message)) {
    return shortenText(error.message, TOOLTIP_TEXT_MAX);
  }
  return undefined;
}

function originText(run: RunRecord, t: Translate): string | undefined {
  const record = run as { resumed_from?: unknown; forked_from?: unknown };
  if (nonEmpty(record.resumed_from)) {
    return t('resumed from {0}', record.resumed_from);
  }
  const fork = record.forked_from;
  if (fork && typeof fork === 'object') {
    const { run_id: runId, sequence } = fork as { run_id?: unknown; sequence?: unknown };
    if (nonEmpty(runId)) {
      return typeof sequence === 'number'
        ? t('forked from {0} after event {1}', runId, sequence)
        : t('forked from {0}', runId);
    }
  }
  return undefined;
}

export function runTooltip(run: RunRecord, t: Translate, opts: TimeFormatOptions = {}, objective?: string): string {
  return tooltipText(nonEmpty(objective) ? shortenText(objective, TOOLTIP_TEXT_MAX) : t('Run {0}', run.id), [
    { label: t('ID'), value: run.id },
    { label: t('Task'), value: id(run.task_id) },
    { label: t('Status'), value: statusLabel(run.status, t) },
    { label: t('Origin'), value: originText(run, t) },
    { label: t('Cost'), value: costText(run) },
    { label: t('Spending cap'), value: run.budget === undefined ? undefined : spendAgainstCap(run, t) },
    { label: t('Error'), value: runErrorMessage(run) },
    ...createdRows(run.created_at, t, opts),
    { label: t('Started'), value: formatLocalTime(run.started_at, opts) },
    { label: t('Finished'), value: formatLocalTime(run.completed_at, opts) },
  ]);
}

export function artifactTooltip(artifact: ArtifactRecord, t: Translate, opts: TimeFormatOptions = {}): string {
  return tooltipText(artifactLabel(artifact), [
    { label: t('ID'), value: artifact.id },
    { label: t('Run'), value: id(artifact.run_id) },
    { label: t('File'), value: id(artifact.file_id) },
    { label: t('Size'), value: sizeText(artifact.bytes, t, opts.locale) },
    { label: t('Content type'), value: id(artifact.content_type) },
    ...createdRows(artifact.created_at, t, opts),
  ]);
}
