// The deterministic built-in agent: reads each attached document, reports on it, writes two artifacts.
import type { Readable } from 'stream';
import { analyseDocument, type DocumentAnalysis } from './documentAnalysis';
import type { ArtifactRecord, FileRecord, TaskRecord, TerminalStatus } from './records';

/** What the agent may do to the world: everything goes through the runtime that owns the run. */
export interface AgentEnvironment {
  readonly runId: string;
  readonly paceMs: number;
  readonly signal: AbortSignal;
  openFile(fileId: string): { record: FileRecord; content: () => Readable } | undefined;
  emit(event: string, data: Record<string, unknown>): number;
  markRunning(): void;
  finish(status: TerminalStatus, errorMessage?: string): void;
  saveArtifact(name: string, contentType: string, content: string): Promise<ArtifactRecord>;
}

interface DocumentReport {
  fileId: string;
  filename: string;
  analysis: Extract<DocumentAnalysis, { text: true }>;
}

export async function runBuiltInAgent(task: TaskRecord, env: AgentEnvironment): Promise<void> {
  const pace = (): Promise<void> => sleep(env.paceMs, env.signal);
  const emit = async (event: string, data: Record<string, unknown>): Promise<void> => {
    await pace();
    env.emit(event, data);
  };

  await pace();
  env.markRunning();
  const documents = task.attachments;
  await emit('plan.created', {
    steps: documents.length + 1,
    strategy:
      documents.length > 0
        ? `Read each of the ${documents.length} attached document(s), measure it and list its headings, then write a report.`
        : 'No documents are attached: write a short report on the objective alone.',
  });

  const reports: DocumentReport[] = [];
  for (const [index, attachment] of documents.entries()) {
    const stepId = `step_${index + 1}`;
    const startedAt = Date.now();
    const file = env.openFile(attachment.fileId);
    const filename = file?.record.filename ?? attachment.fileId;
    await emit('step.started', { step_id: stepId, title: `Read ${filename}` });
    await emit('tool.called', { tool: 'read_file', step_id: stepId });
    if (!file) {
      await emit('observation.recorded', { step_id: stepId, summary: `${filename} no longer exists.` });
      await pace();
      env.finish('failed', `The attachment ${attachment.fileId} no longer exists.`);
      return;
    }
    const analysis = await analyseDocument(file.content());
    if (!analysis.text) {
      await emit('observation.recorded', { step_id: stepId, summary: `${filename} cannot be read as text: ${analysis.reason}.` });
      await pace();
      env.finish('failed', `${filename} cannot be read as text: ${analysis.reason}.`);
      return;
    }
    await emit('observation.recorded', {
      step_id: stepId,
      summary: `Read ${filename}: ${analysis.bytes} bytes in ${analysis.lines} line(s).`,
    });
    await emit('tool.called', { tool: 'count_words', step_id: stepId });
    await emit('observation.recorded', { step_id: stepId, summary: `${filename} has ${analysis.words} word(s).` });
    await emit('tool.called', { tool: 'extract_headings', step_id: stepId });
    await emit('observation.recorded', {
      step_id: stepId,
      summary:
        analysis.headings.length > 0
          ? `${filename} has ${analysis.headings.length} heading(s): ${analysis.headings.slice(0, 5).join('; ')}${analysis.headings.length > 5 ? '; …' : ''}.`
          : `${filename} has no Markdown headings.`,
    });
    await emit('step.completed', { step_id: stepId, duration_ms: Date.now() - startedAt });
    reports.push({ fileId: attachment.fileId, filename, analysis });
  }

  const stepId = `step_${documents.length + 1}`;
  const startedAt = Date.now();
  await emit('step.started', { step_id: stepId, title: 'Write the report' });
  await emit('tool.called', { tool: 'write_file', step_id: stepId });
  const report = await env.saveArtifact('report.md', 'text/markdown; charset=utf-8', markdownReport(task, env.runId, reports));
  await emit('artifact.created', { artifact_id: report.id, name: report.name, file_id: report.file_id, bytes: report.bytes });
  const summary = await env.saveArtifact('summary.json', 'application/json', `${JSON.stringify(jsonSummary(task, env.runId, reports), null, 2)}\n`);
  await emit('artifact.created', { artifact_id: summary.id, name: summary.name, file_id: summary.file_id, bytes: summary.bytes });
  await emit('observation.recorded', {
    step_id: stepId,
    summary: `Wrote report.md (${report.bytes} bytes) and summary.json (${summary.bytes} bytes).`,
  });
  await emit('step.completed', { step_id: stepId, duration_ms: Date.now() - startedAt });
  await pace();
  env.finish('completed');
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
    lines.push(`| ${r.filename.replace(/\|/g, '\\|')} | ${r.analysis.bytes} | ${r.analysis.lines} | ${r.analysis.words} | ${r.analysis.headings.length} |`);
  }
  for (const r of reports) {
    lines.push('', `## ${r.filename}`, '');
    if (r.analysis.headings.length === 0) lines.push('No headings.');
    for (const heading of r.analysis.headings) lines.push(`- ${heading}`);
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
