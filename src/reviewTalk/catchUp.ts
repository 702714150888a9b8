// "Ask the Agent to Update Its Changes...": when the workspace moved on since a run started (a
// project's HEAD has commits after the run's base_commit; an uploaded file the run changed was
// edited since it was sent), one follow-up run is forked after the run's last step with the new
// starting point: the fork carries `context` {ref, commit: HEAD} and the uncommitted work as a
// diff (projects), or the edited files uploaded again in place of the old ones (uploads), and
// instructions that say what moved (docs/PROTOCOL.md, Fork). The whole of what goes out is shown
// first (a read-only document and a modal); the fork's Idempotency-Key and the uploads are kept
// across a retry of the same content, so a retry never starts two runs.
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { ArtifactRecord, Attachment, RunRecord, TaskRecord } from '../api/types';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { questionSkipped } from '../commandSupport/questionSkip';
import { resolveRun } from '../commandSupport/runArgs';
import { Commands } from '../common/ids';
import { inert } from '../common/inertText';
import { askModal, notify } from '../common/notify';
import { vscodeTranslate } from '../common/vscodeTranslate';
import {
  type CatchUp,
  catchUpInstructions,
  type EditedFile,
  fileState,
  type MovedCommit,
  type ProjectMove,
  projectMove,
} from '../reviewComments/workspaceMoves';
import { parseReviewUri } from '../reviewUi/reviewContent';
import { hashIfUnchanged, stampOf } from '../reviewUi/uploadFingerprint';
import { recordUploads } from '../reviewUi/uploadOrigins';
import { isTerminalStatus } from '../runEvents/runStatus';
import type { RunStore } from '../runs/runStore';
import { realInside } from '../upload/realPaths';
import { continuedRunLabel, forkAfterLastStep, type SendPreviews, startFollowUp } from './sendComments';
import { SendKeys } from './sendKeys';

/** The workspace's clone of a project against a base commit (src/projects/projectCommands.ts ClonePosition, by shape). */
export interface CloneAt {
  folder: string;
  head: string;
  ref?: string;
  baseKnown: boolean;
  commits: MovedCommit[];
  choosePatch(
    automation: { tracked?: string[]; untracked?: string[] },
    interactive: boolean,
  ): Promise<{ text: string; files: string[] } | undefined | 'cancelled'>;
}

/** extension.ts hands this over from src/projects (reviewTalk does not import projects). */
export type ClonePositions = (projectId: string, baseCommit: string) => Promise<CloneAt | string>;

export interface CatchUpResult {
  runId: string;
  moved: boolean;
  /** Not moved: the one sentence shown. */
  sentence?: string;
  followUpRunId?: string;
  commits?: string[];
  files?: string[];
}

/** Files compared at most, and the most of one read to hash (the agent's version, as sent). */
const MAX_COMPARED_FILES = 200;
const MAX_COMPARED_BYTES = 10 * 1024 * 1024;
const MAX_RUN_ARTIFACTS = 1000;
/** Runs offered in the palette's pick. */
const MAX_PICKED_RUNS = 50;

/** What goes out, decided before the person is asked. */
type Found =
  | { moved: false; sentence: string }
  | {
      moved: true;
      kind: 'project';
      move: Extract<ProjectMove, { moved: true }>;
      clone: CloneAt;
    }
  | { moved: true; kind: 'uploads'; task: TaskRecord; edited: EditedUpload[]; taskFiles: string[] };

/** What the fork is given to start from, once uploaded. */
interface OutgoingInputs {
  context?: { ref?: string; commit: string };
  attachments: Attachment[];
  /** Uploads: each edited file with its new id. */
  files?: EditedFile[];
}

interface EditedUpload {
  /** The attachment's filename (the agent's name for it). */
  name: string;
  oldFileId: string;
  uri: vscode.Uri;
  relativePath: string;
  sha256: string;
}

export function registerCatchUp(
  deps: CommandDeps,
  runs: RunStore,
  previews: SendPreviews,
  clonePositions: ClonePositions,
): vscode.Disposable[] {
  const keys = new SendKeys();
  /** Uploads made for a catch-up not yet known to have started, by content: a retry sends them by id. */
  const uploaded = new Map<string, string>();

  const uploadOnce = async (digest: string, send: () => Promise<string>): Promise<string> => {
    const known = uploaded.get(digest);
    if (known !== undefined) {
      return known;
    }
    const id = await send();
    uploaded.set(digest, id);
    while (uploaded.size > 50) {
      uploaded.delete(uploaded.keys().next().value as string);
    }
    return id;
  };

  const command = deps.guard(
    'Ask the agent to update its changes',
    async (arg?: unknown): Promise<CatchUpResult | undefined> => {
      const given =
        deps.trustedAutomation && arg !== null && typeof arg === 'object' && !(arg instanceof vscode.Uri)
          ? (arg as { tracked?: string[]; untracked?: string[]; instructions?: string; confirm?: boolean })
          : {};
      if (!(await deps.ensureSignedIn())) {
        return undefined;
      }
      const runId = await runIdOf(deps, runs, arg);
      if (!runId) {
        return undefined;
      }
      const record = await deps.service.client.getRun(runId);
      if (!isTerminalStatus(record.status)) {
        throw new UserFacingError(
          vscode.l10n.t('This run is still going. Ask the agent to update its changes once it has ended.'),
        );
      }
      const taskId = typeof record.task_id === 'string' && record.task_id !== '' ? record.task_id : undefined;
      if (!taskId) {
        throw new UserFacingError(vscode.l10n.t('The server did not say which task run {0} belongs to.', runId));
      }
      const task = await deps.service.client.getTask(taskId);
      const interactive = !questionSkipped(deps.trustedAutomation, arg);
      const found = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Comparing the workspace with what the run started from'),
          cancellable: true,
        },
        async (_progress, token) => {
          const controller = new AbortController();
          const sub = token.onCancellationRequested(() => controller.abort());
          try {
            return typeof task.project_id === 'string' && task.project_id !== ''
              ? await projectFound(task, record, controller.signal)
              : await uploadsFound(task, runId, controller.signal);
          } finally {
            sub.dispose();
          }
        },
      );
      if (!found.moved) {
        void notify.info(found.sentence);
        return { runId, moved: false, sentence: found.sentence };
      }
      const way = await forkAfterLastStep(deps, runs, runId);
      if (!way) {
        throw new UserFacingError(vscode.l10n.t('The end of this run could not be read; try again in a moment.'));
      }
      let patch: { text: string; files: string[] } | undefined;
      if (found.kind === 'project') {
        const chosen = await found.clone.choosePatch(given, interactive);
        if (chosen === 'cancelled') {
          return undefined;
        }
        patch = chosen;
      }
      const note = typeof given.instructions === 'string' ? given.instructions : undefined;
      const service = deps.service.client.baseUrl;
      if (interactive) {
        const label = await continuedRunLabel(deps, record);
        const uri = previews.put(previewText(service, runId, label, way.afterSequence, found, patch, note));
        await vscode.window.showTextDocument(uri, { preview: true, viewColumn: vscode.ViewColumn.Beside });
        const go = vscode.l10n.t('Send to the Agent');
        const moved =
          found.kind === 'project'
            ? found.move.commits.map((c) => `${c.sha.slice(0, 7)} ${c.subject}`)
            : found.edited.map((f) => f.relativePath);
        const choice = await askModal(
          'info',
          found.kind === 'project'
            ? vscode.l10n.t(
                'Ask the agent to update {0} to commit {1}, {2} commits later?',
                label,
                found.move.head.slice(0, 7),
                found.move.commits.length + found.move.more,
              )
            : vscode.l10n.t(
                'Ask the agent to update {0} to the {1} files edited since they were sent?',
                label,
                found.edited.length,
              ),
          [
            ...moved,
            ...(found.kind === 'project' && found.move.more > 0
              ? [vscode.l10n.t('and {0} older commits', found.move.more)]
              : []),
            ...(patch ? [vscode.l10n.t('Uncommitted work sent as a patch: {0}', patch.files.join(', '))] : []),
            found.kind === 'uploads'
              ? vscode.l10n.t('Each edited file is uploaded again and attached in place of the one sent before.')
              : vscode.l10n.t('The new run starts from commit {0}.', found.move.head.slice(0, 7)),
            vscode.l10n.t('A new run forks {0} after its last step and goes on from what it produced.', label),
            vscode.l10n.t('Service: {0}', service),
            vscode.l10n.t('Everything that goes out is in the document beside this.'),
          ],
          go,
        );
        if (choice !== go) {
          return undefined;
        }
      }
      const cap = await deps.budgets.choose('person');
      if (cap.refused !== undefined) {
        return undefined;
      }
      const body: OutgoingInputs = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Uploading what moved...') },
        (): Promise<OutgoingInputs> =>
          found.kind === 'project' ? projectBody(found, patch) : uploadsBody(found, taskId),
      );
      const catchUp: CatchUp =
        found.kind === 'project'
          ? { kind: 'project', move: found.move, uncommitted: patch?.files ?? [] }
          : { kind: 'uploads', files: body.files ?? [] };
      const instructions = catchUpInstructions(catchUp, note);
      let run: RunRecord;
      try {
        run = await startFollowUp(deps, keys, runId, way, {
          instructions,
          budget: cap.budget,
          ...(body.context ? { context: body.context } : {}),
          attachments: body.attachments,
        });
      } catch (err) {
        if (isApiError(err, 'conflict')) {
          throw new UserFacingError(vscode.l10n.t('The run cannot be forked now: {0}', err.message));
        }
        throw err; // the same key and uploads are used when the person asks again
      }
      uploaded.clear();
      deps.budgets.noteStarted(cap, run, run.id);
      runs.noteRecord(run);
      runs.follow(run.id, taskId);
      deps.tasks.refresh();
      await vscode.commands.executeCommand(Commands.watchRun, { runId: run.id });
      return {
        runId,
        moved: true,
        followUpRunId: run.id,
        ...(found.kind === 'project'
          ? { commits: found.move.commits.map((c) => c.sha) }
          : { files: found.edited.map((f) => f.relativePath) }),
      };
    },
  );

  /** A project run: the commit it started from against the clone's HEAD now. */
  const projectFound = async (task: TaskRecord, record: RunRecord, signal: AbortSignal): Promise<Found> => {
    const outputs = await runArtifacts(record.id, signal);
    const fromPatch = outputs.find((a) => typeof a.base_commit === 'string')?.base_commit;
    const runContext = record.context as { commit?: unknown } | undefined;
    const base =
      fromPatch ?? (typeof runContext?.commit === 'string' ? runContext.commit : undefined) ?? task.context?.commit;
    if (base === undefined || !/^[0-9a-f]{40}$/.test(base)) {
      return {
        moved: false,
        sentence: vscode.l10n.t('This run does not say which commit it started from, so what moved cannot be told.'),
      };
    }
    const clone = await clonePositions(task.project_id as string, base);
    if (typeof clone === 'string') {
      throw new UserFacingError(clone);
    }
    const move = projectMove({ baseCommit: base, ...clone }, vscodeTranslate);
    return move.moved ? { moved: true, kind: 'project', move, clone } : { moved: false, sentence: move.sentence };
  };

  /** A run on uploads: the files it changed whose workspace copy is neither as sent nor the agent's. */
  const uploadsFound = async (task: TaskRecord, runId: string, signal: AbortSignal): Promise<Found> => {
    await deps.localFiles
      .refresh()
      .catch((err: unknown) => deps.log.warn(`Catch up: the record of uploads could not be read: ${String(err)}`));
    const recorded = deps.localFiles.taskFiles(task.id);
    // The files the task was given: as recorded here, else as the server lists them.
    const given = new Set(recorded ?? (Array.isArray(task.attachments) ? task.attachments.map((a) => a.fileId) : []));
    const outputs = await runArtifacts(runId, signal);
    const revised = new Map<string, { name: string; fileId: string }>();
    for (const a of outputs) {
      const source = typeof a.source_file_id === 'string' ? a.source_file_id : undefined;
      if (source && given.has(source) && !revised.has(source) && revised.size < MAX_COMPARED_FILES) {
        revised.set(source, { name: a.name ?? source, fileId: a.file_id ?? a.id });
      }
    }
    const local = [...revised].filter(([source]) => deps.localFiles.origin(source) !== undefined);
    if (local.length === 0) {
      return {
        moved: false,
        sentence: vscode.l10n.t(
          'This run changed no file uploaded from this machine, so there is nothing in the workspace it could update to.',
        ),
      };
    }
    const edited: EditedUpload[] = [];
    for (const [source, revision] of local) {
      signal.throwIfAborted();
      const origin = deps.localFiles.origin(source);
      if (!origin) {
        continue;
      }
      const uri = vscode.Uri.parse(origin.uri);
      if (uri.scheme !== 'file') {
        continue;
      }
      const current = await hashIfUnchanged(uri.fsPath, await stampOf(uri.fsPath));
      const sent = origin.sha256 !== '' ? origin.sha256 : await serverHash(source, signal);
      const agents = await serverHash(revision.fileId, signal);
      if (current !== undefined && fileState({ sent: sent ?? '', current, agents }) === 'edited') {
        edited.push({
          name: revision.name,
          oldFileId: source,
          uri,
          relativePath: origin.relativePath,
          sha256: current,
        });
      }
    }
    if (edited.length === 0) {
      return {
        moved: false,
        sentence: vscode.l10n.t(
          'The workspace has not moved on: none of the {0} files this run changed was edited since it was sent.',
          local.length,
        ),
      };
    }
    return { moved: true, kind: 'uploads', task, edited, taskFiles: [...given] };
  };

  /** The run's artifacts, at most MAX_RUN_ARTIFACTS (the review's bound). */
  const runArtifacts = async (runId: string, signal: AbortSignal): Promise<ArtifactRecord[]> => {
    const out: ArtifactRecord[] = [];
    for await (const a of deps.service.client.iterateRunArtifacts(
      runId,
      { limit: 100 },
      { signal, maxItems: MAX_RUN_ARTIFACTS },
    )) {
      out.push(a);
    }
    return out;
  };

  /** SHA-256 of a server file (at most 10 MB); undefined when it cannot be read. */
  const serverHash = async (fileId: string, signal: AbortSignal): Promise<string | undefined> => {
    try {
      const read = await deps.service.client.readFileContent(fileId, { signal, maxBytes: MAX_COMPARED_BYTES });
      return createHash('sha256').update(read.content).digest('hex');
    } catch (err) {
      signal.throwIfAborted();
      deps.log.warn(`Catch up: ${fileId} could not be read to compare: ${String(err)}`);
      return undefined;
    }
  };

  const projectBody = async (
    found: Extract<Found, { kind: 'project' }>,
    patch: { text: string; files: string[] } | undefined,
  ): Promise<OutgoingInputs> => {
    const attachments: Attachment[] = [];
    if (patch) {
      const digest = createHash('sha256').update(patch.text).digest('hex');
      const fileId = await uploadOnce(digest, async () => {
        const file = await deps.service.client.uploadBytes(Buffer.from(patch.text, 'utf8'), {
          filename: 'uncommitted.diff',
          contentType: 'text/x-diff',
          purpose: 'task_input',
        });
        return file.id;
      });
      attachments.push({ type: 'document', fileId });
    }
    const { move } = found;
    return { context: { ...(move.ref !== undefined ? { ref: move.ref } : {}), commit: move.head }, attachments };
  };

  /** Each edited file uploaded again (the same consent as any upload: listed by name, inside the workspace). */
  const uploadsBody = async (found: Extract<Found, { kind: 'uploads' }>, taskId: string): Promise<OutgoingInputs> => {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const replaced = new Map<string, string>();
    const files: EditedFile[] = [];
    for (const file of found.edited) {
      if ((await realInside(file.uri.fsPath, folders)) !== true) {
        throw new UserFacingError(
          vscode.l10n.t(
            '{0} is no longer inside this workspace, so it is not sent. Nothing was sent.',
            file.relativePath,
          ),
        );
      }
      const stamps = new Map([[file.uri.fsPath, await stampOf(file.uri.fsPath)]]);
      const newId = await uploadOnce(`${file.uri.toString()}\n${file.sha256}`, async () => {
        const record = await deps.service.client.uploadFile(file.uri.fsPath, {
          filename: file.name,
          purpose: 'task_input',
        });
        await recordUploads(
          deps.localFiles,
          [{ file: { path: file.uri.fsPath, bytes: record.bytes ?? 0 }, record }],
          stamps,
        );
        return record.id;
      });
      replaced.set(file.uri.toString(), newId);
      files.push({ name: file.name, oldFileId: file.oldFileId, newFileId: newId });
    }
    await deps.localFiles.recordTask(taskId, [...found.taskFiles, ...replaced.values()]);
    // The task's attachments, each that came from an edited workspace file swapped for its new upload.
    const used = new Set<string>();
    const attachments: Attachment[] = (Array.isArray(found.task.attachments) ? found.task.attachments : []).map((a) => {
      const uri = deps.localFiles.origin(a.fileId)?.uri;
      const newId = uri === undefined ? undefined : replaced.get(uri);
      if (newId === undefined) {
        return { type: a.type, fileId: a.fileId };
      }
      used.add(newId);
      return { type: 'document', fileId: newId };
    });
    for (const newId of replaced.values()) {
      if (!used.has(newId)) {
        attachments.push({ type: 'document', fileId: newId });
      }
    }
    return { attachments, files };
  };

  return [vscode.commands.registerCommand(Commands.askAgentToCatchUp, command)];
}

/** The run: a review document's, the argument's, the selected row's or the panel's, else picked. */
async function runIdOf(deps: CommandDeps, runs: RunStore, arg: unknown): Promise<string | undefined> {
  if (arg instanceof vscode.Uri) {
    return parseReviewUri(arg)?.runId;
  }
  const resolved = resolveRun(arg, { selection: deps.selection('tasks'), activePanel: deps.activeRunPanel });
  if (resolved) {
    return resolved.runId;
  }
  if (arg !== undefined) {
    return undefined;
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  const fromEditor = active && parseReviewUri(active)?.runId;
  if (fromEditor) {
    return fromEditor;
  }
  const ended = runs
    .knownRecords()
    .filter((r) => isTerminalStatus(r.status))
    .sort((a, b) => String(b.created_at ?? '').localeCompare(String(a.created_at ?? '')))
    .slice(0, MAX_PICKED_RUNS);
  if (ended.length === 0) {
    throw new UserFacingError(
      vscode.l10n.t('Choose a run that has ended first: a run row in the Tasks view, or its Review Changes.'),
    );
  }
  const picked = await vscode.window.showQuickPick(
    ended.map((r) => ({
      label: inert(r.id),
      description: inert(`${String(r.status ?? '')} ${String(r.completed_at ?? r.created_at ?? '')}`),
      runId: r.id,
    })),
    {
      title: vscode.l10n.t('Ask the Agent to Update Its Changes'),
      placeHolder: vscode.l10n.t('Which run should catch up with the workspace?'),
    },
  );
  return picked?.runId;
}

/** The whole of what goes out, as the person reads it before sending. */
function previewText(
  service: string,
  runId: string,
  label: string,
  afterSequence: number,
  found: Extract<Found, { moved: true }>,
  patch: { text: string; files: string[] } | undefined,
  note: string | undefined,
): string {
  const out = [
    `# ${vscode.l10n.t('Ask the agent to update its changes')}`,
    '',
    `- ${vscode.l10n.t('Service: {0}', service)}`,
    `- ${vscode.l10n.t('Continues {0} (run {1}) as a new run forked after event #{2}: it goes on from what this run produced', label, runId, afterSequence)}`,
    '',
  ];
  if (found.kind === 'project') {
    const { move } = found;
    out.push(
      `## ${vscode.l10n.t('{0} is now at commit {1}{2}, {3} commits after {4}, which the run started from', found.clone.folder, move.head.slice(0, 7), move.ref !== undefined ? ` (${move.ref})` : '', move.commits.length + move.more, move.baseCommit.slice(0, 7))}`,
      '',
      ...move.commits.map((c) => `    ${c.sha.slice(0, 7)} ${c.subject}`),
      ...(move.more > 0 ? [`    ${vscode.l10n.t('and {0} older commits', move.more)}`] : []),
      '',
      vscode.l10n.t(
        'Sent as the context of the new run: commit {0}{1}.',
        move.head,
        move.ref !== undefined ? `, ${move.ref}` : '',
      ),
      '',
    );
    if (patch) {
      out.push(
        `## ${vscode.l10n.t('Uncommitted work, sent as uncommitted.diff against {0}', move.head.slice(0, 7))}`,
        '',
        ...patch.files.map((f) => `    ${f}`),
        '',
      );
    }
  } else {
    out.push(
      `## ${vscode.l10n.t('Files edited since they were sent: each is uploaded again and attached in place of the one sent before')}`,
      '',
      ...found.edited.map((f) => `    ${f.relativePath}`),
      '',
    );
  }
  const text = catchUpInstructions(
    found.kind === 'project'
      ? { kind: 'project', move: found.move, uncommitted: patch?.files ?? [] }
      : {
          kind: 'uploads',
          files: found.edited.map((f) => ({ name: f.name, oldFileId: f.oldFileId, newFileId: '(new upload)' })),
        },
    note,
  );
  out.push(`## ${vscode.l10n.t('Instructions sent to the agent')}`, '', ...text.split('\n').map((l) => `    ${l}`), '');
  return out.join('\n');
}
