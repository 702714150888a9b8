// What the @agent-runtime participant writes, as Markdown lines: a run in short, a followed run's
// progress, the recent tasks. Every value from the service goes through markdownLiteral (no link,
// image, HTML, code span or icon can come from it); the rest is ours. Pure: `t` translates.
import { errorSentence } from '../api/errorSentences';
import type { TaskRecord } from '../api/types';
import { formatDuration } from '../common/format';
import { markdownLiteral } from '../common/markdownLiteral';
import { singular } from '../common/plural';
import type { Translate } from '../common/translate';
import { statusLabel } from '../runEvents/runStatus';
import type { RunDigest } from '../runs/runDigest';
import { lineText, STEP_IDS_KEPT } from '../runs/runDigest';

const md = (value: unknown, max?: number): string => markdownLiteral(value, max);

export function statusText(status: unknown, t: Translate): string {
  return md(statusLabel(status, t) ?? t('unknown'), 60);
}

/** A run in short: status, steps, cost, a waiting approval, then its latest events. */
export function digestMarkdown(d: RunDigest, t: Translate): string {
  const lines = [t('**Run {0}**: {1}', md(d.runId, 80), statusText(d.status, t)), ''];
  lines.push(
    d.stepsPlanned !== undefined
      ? t('- Steps done: {0} of {1}', d.stepsDone, d.stepsPlanned)
      : t('- Steps done: {0}', d.stepsDone),
  );
  if (d.stepsUnchecked !== undefined) {
    lines.push(
      t(
        '- The last {0} steps were counted without checking for repeats (only {1} step ids are kept): a replayed step among them counts twice.',
        d.stepsUnchecked,
        STEP_IDS_KEPT,
      ),
    );
  }
  if (d.cost !== undefined) {
    lines.push(t('- Cost: {0}', md(d.cost, 60)));
  }
  if (d.error !== undefined) {
    lines.push(t('- Error: {0}', md(d.error)));
  }
  if (d.resumedFrom !== undefined) {
    lines.push(t('- Resumed from {0}', md(d.resumedFrom, 80)));
  }
  if (d.forkedFrom?.runId !== undefined) {
    lines.push(t('- Forked from {0} after event {1}', md(d.forkedFrom.runId, 80), d.forkedFrom.sequence ?? '?'));
  }
  if (d.waitingApproval) {
    lines.push(
      t(
        '- Waits for your decision on the tool {0}: decide it in the run panel or in Needs You.',
        md(d.waitingApproval.tool, 80),
      ),
    );
  }
  if (d.partial === 'live') {
    lines.push(t('- Still going: this is what it had done a moment ago.'));
  }
  if (d.partial === 'stopped') {
    lines.push(t('- Its log is long: the run panel shows all of it.'));
  }
  if (d.latest.length > 0) {
    lines.push('', t('Latest events:'));
    for (const e of d.latest) {
      lines.push(`- ${e.sequence} · ${md(e.event, 64)}${e.text ? `: ${md(e.text, 120)}` : ''}`);
    }
  }
  return lines.join('\n');
}

/**
 * The chat's error line (`ChatResult.errorDetails.message`, which VS Code renders as Markdown):
 * the service's words as inert text, so its message can carry no link or image.
 */
export function chatErrorMessage(err: unknown, t: Translate): string {
  return t('The Agent Runtime service could not answer: {0}', md(errorSentence(err, t), 500));
}

/** Recent tasks, one line each. */
export function tasksMarkdown(tasks: readonly TaskRecord[], t: Translate): string {
  if (tasks.length === 0) {
    return t('No tasks yet. Start one with /task.');
  }
  const lines = [t('**Recent tasks**, newest first:'), ''];
  for (const task of tasks) {
    const run = typeof task.run_id === 'string' ? t(' · run {0}', md(task.run_id, 80)) : '';
    lines.push(`- ${statusText(task.status, t)} · ${md(task.objective ?? task.id, 120)}${run}`);
  }
  return lines.join('\n');
}

/**
 * Follows one run's events for the chat: a Markdown line for what a person wants to see go by
 * (a step done, a tool called, an approval asked), a progress text for the rest. Keeps the step
 * titles so "done" names the step.
 */
export class RunProgressLines {
  private readonly titles = new Map<string, string>();
  private readonly maxTitles = 500;

  /** `isOne`: whether a count takes the singular form (the editor's language; plural.ts). */
  constructor(
    private readonly t: Translate,
    private readonly isOne: (count: number) => boolean = (count) => singular(count),
  ) {}

  /** `line`: Markdown to keep in the answer; `progress`: a transient status. */
  next(event: { event: string; data: { sequence: number; [field: string]: unknown } }): {
    line?: string;
    progress?: string;
  } {
    const t = this.t;
    const { data } = event;
    const text = md(lineText(event), 120);
    switch (event.event) {
      case 'plan.created':
        if (typeof data.steps !== 'number') {
          return {};
        }
        return { line: this.isOne(data.steps) ? t('Planned 1 step.') : t('Planned {0} steps.', data.steps) };
      case 'step.started': {
        if (typeof data.step_id === 'string' && this.titles.size < this.maxTitles) {
          this.titles.set(data.step_id, lineText(event));
        }
        return { progress: t('Working on: {0}', text) };
      }
      case 'tool.called':
        return { progress: t('Calling the tool {0}', text) };
      case 'observation.recorded':
        return { progress: text || undefined };
      case 'step.completed': {
        const title = typeof data.step_id === 'string' ? (this.titles.get(data.step_id) ?? data.step_id) : '';
        const took =
          typeof data.duration_ms === 'number' && Number.isFinite(data.duration_ms) && data.duration_ms >= 0
            ? ` (${formatDuration(data.duration_ms)})`
            : '';
        return { line: t('✓ {0}{1}', md(title, 120), took) };
      }
      case 'approval.requested':
        return {
          line: t('⏸ Waits for your decision on the tool {0}: decide it in the run panel or in Needs You.', text),
        };
      case 'approval.resolved':
        return { line: t('Approval {0}.', text) };
      default:
        return {};
    }
  }
}
