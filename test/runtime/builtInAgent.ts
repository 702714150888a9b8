// The deterministic built-in agent: reads each attached document, revises it, reports on it.
import type { Readable } from 'node:stream';
import { analyseDocument, type DocumentAnalysis } from './documentAnalysis';
import { MAX_REVISED_BYTES, patchStats, reviseText, type Revision, unifiedPatch } from './documentRevision';
import type { ApprovalRecord, ArtifactRecord, FileRecord, TaskRecord, TerminalStatus } from './records';
import { actOnComments, type RuntimeReviewComment } from './reviewComments';

/** What one completed step costs (in cents). */
export const STEP_COST_CENTS = 2;
/** What one tool call costs (in cents); with STEP_COST_CENTS the agents' whole price list. */
export const TOOL_CALL_COST_CENTS = 1;

/** What the agent may do to the world: everything goes through the runtime that owns the run. */
export interface AgentEnvironment {
  readonly runId: string;
  readonly paceMs: number;
  readonly signal: AbortSignal;
  openFile(fileId: string): { record: FileRecord; content: () => Readable } | undefined;
  emit(event: string, data: Record<string, unknown>): number;
  markRunning(): void;
  finish(status: TerminalStatus, errorMessage?: string): void;
  saveArtifact(
    name: string,
    contentType: string,
    content: string,
    sourceFileId?: string,
    extra?: { base_commit?: string },
  ): Promise<ArtifactRecord>;
  /** Logs approval.requested and waits for the person (or the clock); resolves with the settled record. */
  requestApproval(stepId: string, tool: string, args: Record<string, unknown>, reason: string): Promise<ApprovalRecord>;
  chargeStep(): void;
  /** The newest revised copy of an attachment this run's lineage made (the previous revision). */
  readRevision(fileId: string): Promise<string | undefined>;
  /** Resolves at once, or when a person raises the cap of a run waiting at it (rejects on cancel). */
  withinBudget(): Promise<void>;
  /** Ids of up to 3 memories relevant to `text`. */
  recallMemory(text: string): string[];
  /** Remembers `content` (source: this run); returns the memory's id. */
  writeMemory(content: string, tags: string[]): string;
}

/** When the agent writes a memory: the objective asks it to remember (any case). */
export function remembers(objective: string): boolean {
  return /\bremember\b/i.test(objective);
}

/** Where a run starts in the agent's plan: all of it, or after steps an earlier run completed. */
export interface AgentProgram {
  /** Steps completed by the run this one resumes or forks (or by itself before a restart). */
  doneSteps: ReadonlySet<string>;
  /** The step that was waiting for approval when the runtime restarted: no second step.started. */
  continueStep?: string;
  /** A resume's or fork's instructions, done as an extra step before the remaining ones. */
  followUp?: { stepId: string; text: string };
  /** Review comments the follow-up step acts on (README "Review comments"). */
  reviewComments?: readonly RuntimeReviewComment[];
  /** A fork given attachments of its own (docs/PROTOCOL.md, Fork): the follow-up step revises them. */
  reviseAgain?: boolean;
  /** Log plan.created first (false for a fork, whose log starts with the source's, and a restart). */
  announcePlan: boolean;
  resumedFrom?: string;
}

/**
 * When a person must approve the agent's writes: the objective or the run's instructions say
 * "ask before", "approval" or "approve" (any case).
 */
export function approvalsRequired(objective: string, instructions?: string): boolean {
  return /ask before|approv(al|e)/i.test(`${objective}\n${instructions ?? ''}`);
}

type StepPlan =
  | { id: string; kind: 'read'; index: number }
  | { id: string; kind: 'revise' | 'report' }
  | { id: string; kind: 'follow-up'; text: string };

/** The task's own steps: one per attachment, a revision step when there are any, the report. */
export function baseSteps(task: TaskRecord): StepPlan[] {
  const steps: StepPlan[] = task.attachments.map((_, index) => ({ id: `step_${index + 1}`, kind: 'read', index }));
  if (steps.length > 0) {
    steps.push({ id: `step_${steps.length + 1}`, kind: 'revise' });
  }
  steps.push({ id: `step_${steps.length + 1}`, kind: 'report' });
  return steps;
}

interface DocumentReport {
  fileId: string;
  filename: string;
  contentType: string;
  analysis: Extract<DocumentAnalysis, { text: true }>;
}

export async function runBuiltInAgent(
  task: TaskRecord,
  env: AgentEnvironment,
  program: AgentProgram = { doneSteps: new Set(), announcePlan: true },
): Promise<void> {
  const pace = (): Promise<void> => sleep(env.paceMs, env.signal);
  const emit = async (event: string, data: Record<string, unknown>): Promise<void> => {
    await pace();
    await env.withinBudget();
    env.emit(event, data);
  };
  const needsApproval = approvalsRequired(task.objective, program.followUp?.text);
  /** True when the call may go ahead; otherwise the skip is observed and the step goes on without it. */
  const allowed = async (
    stepId: string,
    tool: string,
    args: Record<string, unknown>,
    reason: string,
  ): Promise<boolean> => {
    if (!needsApproval) {
      return true;
    }
    await pace();
    const settled = await env.requestApproval(stepId, tool, args, reason);
    if (settled.status === 'approved') {
      return true;
    }
    const note = settled.note ? ` (note: ${settled.note})` : '';
    await emit('observation.recorded', {
      step_id: stepId,
      summary: `Skipped ${tool}: the approval was ${settled.status}${note}.`,
    });
    return false;
  };

  await pace();
  env.markRunning();
  const documents = task.attachments;
  const steps = [
    ...(program.followUp
      ? [{ id: program.followUp.stepId, kind: 'follow-up' as const, text: program.followUp.text }]
      : []),
    ...baseSteps(task),
  ].filter((step) => !program.doneSteps.has(step.id));
  if (program.announcePlan) {
    const resumed = program.resumedFrom
      ? `Resume ${program.resumedFrom} with its ${steps.length} remaining step(s). `
      : '';
    await emit('plan.created', {
      steps: steps.length,
      strategy:
        resumed +
        (documents.length > 0
          ? `Read each of the ${documents.length} attached document(s), measure it and list its headings, revise it, then write a report.`
          : 'No documents are attached: write a short report on the objective alone.'),
      ...(program.resumedFrom ? { resumed_from: program.resumedFrom } : {}),
    });
  }

  const reports = new Map<number, DocumentReport>();
  /** Measures a document whose read step an earlier run did (its numbers feed the report). */
  const quietly = async (index: number): Promise<DocumentReport | undefined> => {
    const known = reports.get(index);
    if (known) {
      return known;
    }
    const file = env.openFile(documents[index].fileId);
    if (!file) {
      return undefined;
    }
    const analysis = await analyseDocument(file.content());
    if (!analysis.text) {
      return undefined;
    }
    const report = {
      fileId: file.record.id,
      filename: file.record.filename,
      contentType: file.record.content_type,
      analysis,
    };
    reports.set(index, report);
    return report;
  };

  for (const step of steps) {
    const stepId = step.id;
    const startedAt = Date.now();
    if (step.kind === 'read') {
      const attachment = documents[step.index];
      const file = env.openFile(attachment.fileId);
      const filename = file?.record.filename ?? attachment.fileId;
      await emit('step.started', { step_id: stepId, title: `Read ${filename}` });
      await emit('tool.called', { tool: 'read_file', step_id: stepId, arguments: { file_id: attachment.fileId } });
      if (!file) {
        await emit('observation.recorded', { step_id: stepId, summary: `${filename} no longer exists.` });
        await pace();
        env.finish('failed', `The attachment ${attachment.fileId} no longer exists.`);
        return;
      }
      const analysis = await analyseDocument(file.content());
      if (!analysis.text) {
        await emit('observation.recorded', {
          step_id: stepId,
          summary: `${filename} cannot be read as text: ${analysis.reason}.`,
        });
        await pace();
        env.finish('failed', `${filename} cannot be read as text: ${analysis.reason}.`);
        return;
      }
      await emit('observation.recorded', {
        step_id: stepId,
        summary: `Read ${filename}: ${analysis.bytes} bytes in ${analysis.lines} line(s).`,
      });
      await emit('tool.called', { tool: 'count_words', step_id: stepId, arguments: { file_id: attachment.fileId } });
      await emit('observation.recorded', { step_id: stepId, summary: `${filename} has ${analysis.words} word(s).` });
      await emit('tool.called', {
        tool: 'extract_headings',
        step_id: stepId,
        arguments: { file_id: attachment.fileId },
      });
      await emit('observation.recorded', {
        step_id: stepId,
        summary:
          analysis.headings.length > 0
            ? `${filename} has ${analysis.headings.length} heading(s): ${analysis.headings.slice(0, 5).join('; ')}${analysis.headings.length > 5 ? '; …' : ''}.`
            : `${filename} has no Markdown headings.`,
      });
      reports.set(step.index, { fileId: attachment.fileId, filename, contentType: file.record.content_type, analysis });
    } else {
      if (stepId !== program.continueStep) {
        await emit('step.started', { step_id: stepId, title: stepTitle(step) });
      }
      if (step.kind === 'follow-up') {
        await emit('observation.recorded', {
          step_id: stepId,
          summary: `Took the follow-up into account: ${step.text}`,
        });
        if (program.reviseAgain) {
          await reviseStep(stepId);
        }
        if (program.reviewComments && program.reviewComments.length > 0) {
          await reviewCommentsStep(stepId, program.reviewComments);
        }
      } else if (step.kind === 'revise') {
        await reviseStep(stepId);
      } else {
        await reportStep(stepId);
      }
    }
    await emit('step.completed', { step_id: stepId, duration_ms: Date.now() - startedAt });
    env.chargeStep();
  }
  await pace();
  await env.withinBudget();
  env.finish('completed');

  async function reviseStep(stepId: string): Promise<void> {
    const revisions: (Revision & { report: DocumentReport })[] = [];
    for (let index = 0; index < documents.length; index++) {
      const report = await quietly(index);
      if (!report || report.analysis.bytes > MAX_REVISED_BYTES) {
        continue;
      }
      const file = env.openFile(report.fileId);
      if (!file) {
        continue;
      }
      const before = await readText(file.content());
      revisions.push({
        name: report.filename,
        before,
        after: reviseText(report.filename, before, task.objective),
        report,
      });
    }
    if (revisions.length === 0) {
      await emit('observation.recorded', {
        step_id: stepId,
        summary: 'No attached document is small enough to revise.',
      });
      return;
    }
    const names = revisions.map((r) => r.name);
    const args = { files: names, patch: 'changes.patch' };
    if (
      !(await allowed(
        stepId,
        'edit_files',
        args,
        `Writes revised copies of ${names.join(', ')} and a patch of the changes.`,
      ))
    ) {
      return;
    }
    await emit('tool.called', { tool: 'edit_files', step_id: stepId, arguments: args });
    for (const revision of revisions) {
      const saved = await env.saveArtifact(
        revision.name,
        revision.report.contentType,
        revision.after,
        revision.report.fileId,
      );
      await emit('artifact.created', {
        artifact_id: saved.id,
        name: saved.name,
        file_id: saved.file_id,
        bytes: saved.bytes,
        source_file_id: revision.report.fileId,
      });
    }
    const patch = await env.saveArtifact('changes.patch', 'text/x-diff', unifiedPatch(revisions));
    await emit('artifact.created', {
      artifact_id: patch.id,
      name: patch.name,
      file_id: patch.file_id,
      bytes: patch.bytes,
    });
    const stats = patchStats(revisions);
    await emit('observation.recorded', {
      step_id: stepId,
      summary: `Revised ${revisions.length} document(s): ${stats.hunks} hunk(s), +${stats.added} -${stats.removed} line(s); the changes are in changes.patch.`,
    });
  }

  /**
   * Acts on review comments: each attachment's previous revision (else the file as sent) is
   * revised by actOnComments, saved again whole (source_file_id, and changes.patch against the
   * files as sent), and each comment acted on gets review_comment.addressed.
   */
  async function reviewCommentsStep(stepId: string, comments: readonly RuntimeReviewComment[]): Promise<void> {
    const revisions: Revision[] = [];
    const saved: { name: string; text: string; report: DocumentReport }[] = [];
    const verdicts: ReturnType<typeof actOnComments>['verdicts'] = [];
    for (let index = 0; index < documents.length; index++) {
      const report = await quietly(index);
      const file = report && env.openFile(report.fileId);
      if (!report || !file || report.analysis.bytes > MAX_REVISED_BYTES) {
        continue;
      }
      const asSent = await readText(file.content());
      const previous = (await env.readRevision(report.fileId)) ?? asSent;
      const acted = actOnComments(
        previous,
        comments.filter((c) => c.path === report.filename),
      );
      verdicts.push(...acted.verdicts);
      revisions.push({ name: report.filename, before: asSent, after: acted.text });
      saved.push({ name: report.filename, text: acted.text, report });
    }
    // Comments on files this task does not have: declined, said so.
    const known = new Set(saved.map((s) => s.name));
    for (const c of comments) {
      if (!known.has(c.path) && !verdicts.some((v) => v.comment_id === c.id)) {
        verdicts.push({ comment_id: c.id, status: 'declined', note: `This task has no file ${c.path}.` });
      }
    }
    if (saved.length > 0) {
      await emit('tool.called', {
        tool: 'edit_files',
        step_id: stepId,
        arguments: { files: saved.map((s) => s.name), patch: 'changes.patch' },
      });
      for (const s of saved) {
        const artifact = await env.saveArtifact(s.name, s.report.contentType, s.text, s.report.fileId);
        await emit('artifact.created', {
          artifact_id: artifact.id,
          name: artifact.name,
          file_id: artifact.file_id,
          bytes: artifact.bytes,
          source_file_id: s.report.fileId,
        });
      }
      const patch = await env.saveArtifact('changes.patch', 'text/x-diff', unifiedPatch(revisions));
      await emit('artifact.created', {
        artifact_id: patch.id,
        name: patch.name,
        file_id: patch.file_id,
        bytes: patch.bytes,
      });
    }
    for (const verdict of verdicts) {
      await emit('review_comment.addressed', { step_id: stepId, ...verdict });
    }
    const addressed = verdicts.filter((v) => v.status === 'addressed').length;
    const declined = verdicts.length - addressed;
    await emit('observation.recorded', {
      step_id: stepId,
      summary: `Read ${comments.length} review comment(s): ${addressed} addressed, ${declined} declined, ${comments.length - verdicts.length} left for the reviewer to judge.`,
    });
  }

  async function reportStep(stepId: string): Promise<void> {
    const recalled = env.recallMemory(task.objective);
    if (recalled.length > 0) {
      await emit('memory.recalled', { step_id: stepId, memory_ids: recalled });
    }
    const paths = { paths: ['report.md', 'summary.json'] };
    if (!(await allowed(stepId, 'write_file', paths, 'Writes the report and the JSON summary.'))) {
      return;
    }
    await emit('tool.called', { tool: 'write_file', step_id: stepId, arguments: paths });
    const measured: DocumentReport[] = [];
    for (let index = 0; index < documents.length; index++) {
      const report = await quietly(index);
      if (report) {
        measured.push(report);
      }
    }
    const report = await env.saveArtifact(
      'report.md',
      'text/markdown; charset=utf-8',
      markdownReport(task, env.runId, measured),
    );
    await emit('artifact.created', {
      artifact_id: report.id,
      name: report.name,
      file_id: report.file_id,
      bytes: report.bytes,
    });
    const summary = await env.saveArtifact(
      'summary.json',
      'application/json',
      `${JSON.stringify(jsonSummary(task, env.runId, measured), null, 2)}\n`,
    );
    await emit('artifact.created', {
      artifact_id: summary.id,
      name: summary.name,
      file_id: summary.file_id,
      bytes: summary.bytes,
    });
    await emit('observation.recorded', {
      step_id: stepId,
      summary: `Wrote report.md (${report.bytes} bytes) and summary.json (${summary.bytes} bytes).`,
    });
    if (remembers(task.objective)) {
      const sum = totals(measured);
      const memoryId = env.writeMemory(
        `Report on "${task.objective.replace(/\s+/g, ' ')}": ${measured.length} document(s), ${sum.words} words, ${sum.headings} headings.`,
        ['report'],
      );
      await emit('memory.written', { step_id: stepId, memory_id: memoryId });
    }
  }
}

function stepTitle(step: StepPlan): string {
  switch (step.kind) {
    case 'follow-up':
      return `Follow-up: ${step.text}`;
    case 'revise':
      return 'Revise the documents';
    case 'report':
      return 'Write the report';
    default:
      return step.id;
  }
}

async function readText(content: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of content) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function totals(reports: DocumentReport[]): { bytes: number; lines: number; words: number; headings: number } {
  return reports.reduce(
    (sum, r) => ({
      bytes: sum.bytes + r.analysis.bytes,
      lines: sum.lines + r.analysis.lines,
      words: sum.words + r.analysis.words,
      headings: sum.headings + r.analysis.headings.length,
    }),
    { bytes: 0, lines: 0, words: 0, headings: 0 },
  );
}

function markdownReport(task: TaskRecord, runId: string, reports: DocumentReport[]): string {
  const lines = [`# Report: ${task.objective.replace(/\s+/g, ' ')}`, '', `Task \`${task.id}\`, run \`${runId}\`.`, ''];
  if (reports.length === 0) {
    lines.push('No documents were attached, so there is nothing to measure.', '');
    return lines.join('\n');
  }
  const sum = totals(reports);
  lines.push(
    `${reports.length} document(s), ${sum.bytes} bytes, ${sum.lines} lines, ${sum.words} words, ${sum.headings} headings.`,
    '',
    '| Document | Bytes | Lines | Words | Headings |',
    '| --- | ---: | ---: | ---: | ---: |',
  );
  for (const r of reports) {
    lines.push(
      `| ${r.filename.replace(/\|/g, '\\|')} | ${r.analysis.bytes} | ${r.analysis.lines} | ${r.analysis.words} | ${r.analysis.headings.length} |`,
    );
  }
  for (const r of reports) {
    lines.push('', `## ${r.filename}`, '');
    if (r.analysis.headings.length === 0) {
      lines.push('No headings.');
    }
    for (const heading of r.analysis.headings) {
      lines.push(`- ${heading}`);
    }
  }
  lines.push('');
  return lines.join('\n');
}

function jsonSummary(task: TaskRecord, runId: string, reports: DocumentReport[]): Record<string, unknown> {
  return {
    task_id: task.id,
    run_id: runId,
    objective: task.objective,
    documents: reports.map((r) => ({
      file_id: r.fileId,
      filename: r.filename,
      bytes: r.analysis.bytes,
      lines: r.analysis.lines,
      words: r.analysis.words,
      headings: r.analysis.headings,
    })),
    totals: totals(reports),
  };
}

/** Waits `ms` (0: one event-loop turn, so runs stay asynchronous); rejects when the run is stopped. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error('run stopped'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('run stopped'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
