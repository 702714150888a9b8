// "Go to…": open any task, run, file or artifact by its id (or a run link) without paging the
// views to it. A task is revealed in the Tasks view (put first when no loaded page holds it), a
// run opens its panel (at the linked event), a file and an artifact open read-only. From the
// palette and the views' title bars it asks in a quick pick; given a string it goes straight there.
import * as vscode from 'vscode';
import type { ArtifactRecord, FileRecord } from '../api/types';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { withAbortSignal } from '../common/abortOn';
import { Commands, SHOW_SIDEBAR_COMMAND } from '../common/ids';
import { notify } from '../common/notify';
import { type GoToTarget, parseGoToInput } from '../links/goToInput';
import { type GoToFound, resolveGoTo } from '../links/goToResolve';
import { echo, notFoundText, problemText, stoppedLookingText } from '../links/linkText';
import {
  loadedArtifactNode,
  loadedRunNode,
  revealFileIfShown,
  revealLoaded,
  revealTaskRecord,
} from '../views/goToReveal';
import type { Sidebar } from '../views/sidebar';
import { describeTarget, pickGoToTarget, type RecentTarget } from './goToPicker';

export interface GoToDeps {
  sidebar: Sidebar;
  runPanels: { open(runId: string, options?: { objective?: string; revealSequence?: number }): void };
  openArtifact(artifact: ArtifactRecord): Promise<void>;
  /** Where the recently opened records are kept (the workspace's state). */
  state: Pick<vscode.Memento, 'get' | 'update'>;
}

const RECENT_KEY = 'agentRuntime.goTo.recent';
const RECENT_MAX = 8;

export function registerGoToCommand(deps: CommandDeps, goTo: GoToDeps): vscode.Disposable {
  return vscode.commands.registerCommand(
    Commands.goTo,
    deps.guard('Go to', async (arg?: unknown) => {
      if (!(await deps.ensureSignedIn())) {
        return undefined;
      }
      const picked =
        typeof arg === 'string'
          ? await readDirect(deps, arg)
          : await pickGoToTarget(() => deps.service.client, await clipboardText(), recent(goTo.state));
      if (!picked) {
        return undefined;
      }
      await remember(goTo.state, picked.target, labelOf(picked.found, goTo.sidebar));
      await show(goTo, picked.found);
      return picked.found.kind;
    }),
  );
}

/** Without the pick (another command, a test): the read under a cancellable notification. */
async function readDirect(
  deps: CommandDeps,
  input: string,
): Promise<{ target: GoToTarget; found: GoToFound } | undefined> {
  const parsed = parseGoToInput(input);
  if (!parsed.ok) {
    throw new UserFacingError(problemText(parsed.problem, vscode.l10n.t));
  }
  const target = parsed.target;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: describeTarget(target), cancellable: true },
    (_progress, token) => withAbortSignal(token, (signal) => resolveGoTo(target, deps.service.client, signal)),
  );
  if ('found' in result) {
    return { target, found: result.found };
  }
  if ('needsRun' in result) {
    throw new UserFacingError(
      vscode.l10n.t(
        'An artifact is found through its run: paste the run id with it ("run_… {0}"), or open the run and pick it there.',
        echo(target.id),
      ),
    );
  }
  const again = vscode.l10n.t('Go to…');
  const text =
    'stoppedLooking' in result
      ? stoppedLookingText(target.id, result.stoppedLooking.searched, vscode.l10n.t)
      : notFoundText(target.kind, target.id, vscode.l10n.t);
  void notify.warn(text, again).then((choice) => {
    if (choice === again) {
      void vscode.commands.executeCommand(Commands.goTo);
    }
  });
  return undefined;
}

async function show(goTo: GoToDeps, found: GoToFound): Promise<void> {
  switch (found.kind) {
    case 'task': {
      await vscode.commands.executeCommand(SHOW_SIDEBAR_COMMAND);
      const revealed = await revealTaskRecord(goTo.sidebar, found.task);
      if (revealed.outcome === 'hidden') {
        await offerToClearFilter(goTo, found.task.id, found.task.objective);
      }
      return;
    }
    case 'run': {
      const row = loadedRunNode(goTo.sidebar, found.run.id);
      goTo.runPanels.open(found.run.id, { objective: row?.objective, revealSequence: found.sequence });
      if (row) {
        await revealLoaded(goTo.sidebar, row);
      }
      return;
    }
    case 'file':
      await goTo.openArtifact(fileAsArtifact(found.file));
      await revealFileIfShown(goTo.sidebar, found.file);
      return;
    case 'artifact': {
      await goTo.openArtifact(found.artifact);
      const row = loadedArtifactNode(goTo.sidebar, found.artifact.id);
      if (row) {
        await revealLoaded(goTo.sidebar, row);
      }
      return;
    }
  }
}

/** The filter keeps the task out of view: say so, and reveal it once the filter is cleared. */
async function offerToClearFilter(goTo: GoToDeps, taskId: string, objective: string | undefined): Promise<void> {
  const clear = vscode.l10n.t('Clear Filter');
  const choice = await notify.info(
    vscode.l10n.t(
      'The task "{0}" does not match the Tasks view\'s filter "{1}".',
      echo(objective ?? taskId),
      echo(goTo.sidebar.tasksFilter.query ?? ''),
    ),
    clear,
  );
  if (choice !== clear) {
    return;
  }
  await goTo.sidebar.tasksFilter.setQuery(undefined);
  const task = goTo.sidebar.tasks.taskNodes.find((n) => n.entityId === taskId)?.task;
  if (task) {
    await revealTaskRecord(goTo.sidebar, task);
  }
}

/** A file opens as an artifact does: read-only, text in the editor, anything else offered for saving. */
function fileAsArtifact(file: FileRecord): ArtifactRecord {
  return {
    id: file.id,
    file_id: file.id,
    name: file.filename,
    bytes: file.bytes,
    content_type: file.content_type,
    created_at: file.created_at,
  };
}

function recent(state: GoToDeps['state']): RecentTarget[] {
  const raw = state.get<unknown>(RECENT_KEY);
  if (!Array.isArray(raw)) {
    return [];
  }
  return raw
    .filter(
      (r): r is RecentTarget =>
        typeof r === 'object' && r !== null && typeof r.input === 'string' && typeof r.label === 'string',
    )
    .filter((r) => parseGoToInput(r.input).ok)
    .slice(0, RECENT_MAX);
}

async function remember(state: GoToDeps['state'], target: GoToTarget, label: string): Promise<void> {
  const input = target.kind === 'artifact' && target.runId ? `${target.runId} ${target.id}` : target.id;
  const entry: RecentTarget = { input, label };
  await state.update(RECENT_KEY, [entry, ...recent(state).filter((r) => r.input !== input)].slice(0, RECENT_MAX));
}

/** The words a person knows a record by (the quick pick shows the id beside them). */
function labelOf(found: GoToFound, sidebar: Sidebar): string {
  const text = (value: unknown, fallback: string) =>
    typeof value === 'string' && value.trim() !== '' ? echo(value) : fallback;
  switch (found.kind) {
    case 'task':
      return text(found.task.objective, found.task.id);
    case 'run': {
      const objective = sidebar.tasks.taskNodes.find((n) => n.entityId === found.run.task_id)?.task.objective;
      return objective ? vscode.l10n.t('A run of "{0}"', echo(objective)) : vscode.l10n.t('Run {0}', found.run.id);
    }
    case 'file':
      return text(found.file.filename, found.file.id);
    case 'artifact':
      return text(found.artifact.name, found.artifact.id);
  }
}

async function clipboardText(): Promise<string> {
  try {
    return (await vscode.env.clipboard.readText()).trim();
  } catch {
    return '';
  }
}
