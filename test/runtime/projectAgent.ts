// The built-in agent on a project task: reads the repository at context.commit (git show), applies
// the uncommitted patch attached to the task, makes its deterministic edit and gives back one patch
// against context.commit with paths relative to the repository root (`base_commit` on the artifact).
import type { Readable } from 'node:stream';
import { applyPatch, FILE_HEADERS_ONLY, formatPatch, parsePatch, type StructuredPatch, structuredPatch } from 'diff';
import { type AgentEnvironment, sleep } from './builtInAgent';
import { MAX_REVISED_BYTES, reviseText } from './documentRevision';
import type { LocalRepository } from './projectRepository';
import type { TaskRecord } from './records';
import { actOnComments, type RuntimeReviewComment } from './reviewComments';

/** Files the agent edits at most in one run. */
export const MAX_PROJECT_EDITS = 5;

export interface ProjectWork {
  repository: LocalRepository;
  commit: string;
  ref?: string;
  /**
   * A follow-up's review comments: each edited file's text is then revised by actOnComments too,
   * but no verdict is logged (the client judges each comment from the patch: README "Review
   * comments").
   */
  reviewComments?: readonly RuntimeReviewComment[];
}

interface Edit {
  path: string;
  /** undefined: the file does not exist at the commit (a new file of the uncommitted patch). */
  before: string | undefined;
  working: string;
}

export function isPatchFile(name: string, contentType: string): boolean {
  return /^text\/x-(diff|patch)\b/i.test(contentType) || /\.(diff|patch)$/i.test(name);
}

function stripPrefix(name: string | undefined, prefix: 'a/' | 'b/'): string | undefined {
  if (name === undefined || name === '/dev/null') {
    return undefined;
  }
  const clean = name.split('\t')[0];
  return clean.startsWith(prefix) ? clean.slice(prefix.length) : clean;
}

function isText(bytes: Buffer): boolean {
  return !bytes.subarray(0, 8000).includes(0);
}

export async function runProjectAgent(task: TaskRecord, env: AgentEnvironment, work: ProjectWork): Promise<void> {
  const emit = async (event: string, data: Record<string, unknown>): Promise<void> => {
    await sleep(env.paceMs, env.signal);
    await env.withinBudget();
    env.emit(event, data);
  };
  const fail = async (stepId: string, message: string): Promise<void> => {
    await emit('observation.recorded', { step_id: stepId, summary: message });
    await sleep(env.paceMs, env.signal);
    env.finish('failed', message);
  };
  const short = work.commit.slice(0, 7);
  await sleep(env.paceMs, env.signal);
  env.markRunning();
  await emit('plan.created', {
    steps: 3,
    strategy: `Read the repository at ${short}${work.ref ? ` (${work.ref})` : ''}, apply the uncommitted changes, edit, then write a patch and a report.`,
  });

  // step_1: read the repository and the uncommitted changes.
  let started = Date.now();
  await emit('step.started', { step_id: 'step_1', title: `Read the repository at ${short}` });
  await emit('tool.called', { tool: 'read_repository', step_id: 'step_1' });
  const tracked = await work.repository.files(work.commit);
  await emit('observation.recorded', { step_id: 'step_1', summary: `${tracked.length} file(s) at ${short}.` });
  const edits = new Map<string, Edit>();
  const read = async (path: string): Promise<string | undefined> => {
    const bytes = await work.repository.show(work.commit, path);
    return bytes && isText(bytes) && bytes.length <= MAX_REVISED_BYTES ? bytes.toString('utf8') : undefined;
  };
  for (const attachment of task.attachments) {
    const file = env.openFile(attachment.fileId);
    if (!file || !isPatchFile(file.record.filename, file.record.content_type)) {
      continue;
    }
    await emit('tool.called', { tool: 'apply_patch', step_id: 'step_1' });
    let files: StructuredPatch[];
    try {
      files = parsePatch(await readText(file.content()));
    } catch (err) {
      return fail('step_1', `${file.record.filename} is not a unified diff: ${(err as Error).message}`);
    }
    const applied: string[] = [];
    for (const filePatch of files) {
      if (filePatch.isBinary) {
        continue;
      }
      const path = stripPrefix(filePatch.newFileName, 'b/') ?? stripPrefix(filePatch.oldFileName, 'a/');
      if (!path || stripPrefix(filePatch.newFileName, 'b/') === undefined) {
        continue;
      } // deletions: nothing to edit
      const known = edits.get(path);
      const before = known ? known.before : filePatch.isCreate ? undefined : await read(path);
      const base = known?.working ?? before ?? '';
      const result = applyPatch(base, filePatch);
      if (result === false) {
        return fail('step_1', `The uncommitted changes to ${path} do not apply to ${short}.`);
      }
      edits.set(path, { path, before, working: result });
      applied.push(path);
    }
    await emit('observation.recorded', {
      step_id: 'step_1',
      summary: `Applied the uncommitted changes to ${applied.length} file(s): ${applied.slice(0, 10).join(', ')}.`,
    });
  }
  await emit('step.completed', { step_id: 'step_1', duration_ms: Date.now() - started });
  env.chargeStep();

  // step_2: the edit, and one patch against the commit.
  started = Date.now();
  await emit('step.started', { step_id: 'step_2', title: 'Edit the repository' });
  await emit('tool.called', { tool: 'edit_files', step_id: 'step_2' });
  const readme = tracked.find((name) => /^readme(\.md|\.markdown|\.txt)?$/i.test(name));
  const firstText = async (): Promise<string | undefined> => {
    for (const name of tracked.slice(0, 200)) {
      if ((await read(name)) !== undefined) {
        return name;
      }
    }
    return undefined;
  };
  const target = readme ?? (edits.size === 0 ? await firstText() : undefined);
  if (target && !edits.has(target)) {
    const text = await read(target);
    if (text !== undefined) {
      edits.set(target, { path: target, before: text, working: text });
    }
  }
  const chosen = [...edits.values()].slice(0, MAX_PROJECT_EDITS);
  const comments = work.reviewComments ?? [];
  const patches = chosen.map((edit) =>
    structuredPatch(
      edit.before === undefined ? '/dev/null' : `a/${edit.path}`,
      `b/${edit.path}`,
      edit.before ?? '',
      actOnComments(
        reviseText(edit.path, edit.working, task.objective),
        comments.filter((c) => c.path === edit.path),
      ).text,
      undefined,
      undefined,
      { context: 3 },
    ),
  );
  if (patches.length === 0) {
    await emit('observation.recorded', { step_id: 'step_2', summary: 'No text file in the repository to edit.' });
  } else {
    const patch = await env.saveArtifact(
      'changes.patch',
      'text/x-diff',
      formatPatch(patches, FILE_HEADERS_ONLY),
      undefined,
      { base_commit: work.commit },
    );
    await emit('artifact.created', {
      artifact_id: patch.id,
      name: patch.name,
      file_id: patch.file_id,
      bytes: patch.bytes,
      base_commit: work.commit,
    });
    await emit('observation.recorded', {
      step_id: 'step_2',
      summary: `Edited ${chosen.map((e) => e.path).join(', ')}; the patch against ${short} is in changes.patch.`,
    });
  }
  await emit('step.completed', { step_id: 'step_2', duration_ms: Date.now() - started });
  env.chargeStep();

  // step_3: the report.
  started = Date.now();
  await emit('step.started', { step_id: 'step_3', title: 'Write the report' });
  await emit('tool.called', { tool: 'write_file', step_id: 'step_3' });
  const lines = [
    `# Report: ${task.objective.replace(/\s+/g, ' ')}`,
    '',
    `Task \`${task.id}\`, run \`${env.runId}\`, commit \`${work.commit}\`.`,
    '',
  ];
  for (const edit of chosen) {
    lines.push(`- ${edit.path}${edit.before === undefined ? ' (new)' : ''}`);
  }
  lines.push('');
  const report = await env.saveArtifact('report.md', 'text/markdown; charset=utf-8', lines.join('\n'));
  await emit('artifact.created', {
    artifact_id: report.id,
    name: report.name,
    file_id: report.file_id,
    bytes: report.bytes,
  });
  await emit('step.completed', { step_id: 'step_3', duration_ms: Date.now() - started });
  env.chargeStep();
  await sleep(env.paceMs, env.signal);
  await env.withinBudget();
  env.finish('completed');
}

async function readText(content: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of content) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
