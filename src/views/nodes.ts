// The kinds of rows in the sidebar: files, tasks, runs, artifacts, one "Load more" row and one
// message row. Each has a stable id and a contextValue that the menus in package.json match;
// entity rows expose their record and `entityId` (what Copy ID copies) to the commands.
import * as vscode from 'vscode';
import type { ArtifactRecord, FileRecord, RunRecord, TaskRecord } from '../api/types';
import { ROW_OBJECTIVE, type RowObjective } from '../commandSupport/nodeArgs';
import { Commands } from '../common/ids';
import { inert } from '../common/inertText';
import type { Translate } from '../common/translate';
import { runContextValue, runFactsOf } from '../runEvents/runActions';
import { isUnfinishedStatus, statusIcon } from '../runEvents/runStatus';
import {
  accessibilityLabel,
  artifactDescriptionParts,
  artifactLabel,
  artifactTooltip,
  fileDescriptionParts,
  fileLabel,
  fileTooltip,
  joinDescription,
  runDescriptionParts,
  runLabel,
  runTooltip,
  taskDescriptionParts,
  taskLabel,
  taskTooltip,
  type TimeFormatOptions,
} from './format';
import type { PagedList } from './pagedList';

export type SidebarView = 'files' | 'tasks';

const t: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

/** A project's name in a task row, at most (the tooltip says the same). */
const PROJECT_LABEL_CHARS = 40;

function timeOptions(): TimeFormatOptions {
  const language = vscode.env.language;
  try {
    return { locale: Intl.DateTimeFormat.supportedLocalesOf([language]).length > 0 ? language : undefined };
  } catch {
    return {};
  }
}

function themeIcon(status: string | undefined): vscode.ThemeIcon {
  const icon = statusIcon(status);
  const id = icon.spin ? `${icon.id}~spin` : icon.id;
  return icon.color ? new vscode.ThemeIcon(id, new vscode.ThemeColor(icon.color)) : new vscode.ThemeIcon(id);
}

/** A name-only URI so the file icon theme picks the icon for the name (e.g. `.pdf`, `.py`). */
function iconUri(name: string): vscode.Uri {
  const base = name.replace(/[\\/]/g, '_') || 'file';
  return vscode.Uri.from({ scheme: 'agent-runtime-item', path: `/${base}` });
}

/** A row of stored content (a file or an artifact): named and iconed as a file of that name. */
function renderStoredFile(
  item: vscode.TreeItem,
  kind: string,
  label: string,
  parts: readonly string[],
  tooltip: string,
): void {
  item.label = label;
  item.description = joinDescription(parts);
  item.tooltip = tooltip;
  item.resourceUri = iconUri(label);
  item.iconPath = vscode.ThemeIcon.File;
  item.accessibilityInformation = { label: accessibilityLabel(kind, label, parts) };
}

/**
 * What a row shows, as one string: a newer record that shows the same (a field the row does not
 * display changed) redraws nothing. A redraw under an open context menu closes it, so rows are
 * redrawn only when what a person sees changes.
 */
function shown(item: vscode.TreeItem): string {
  const icon =
    item.iconPath instanceof vscode.ThemeIcon ? [item.iconPath.id, item.iconPath.color?.id] : String(item.iconPath);
  return JSON.stringify([
    item.label,
    item.description,
    item.tooltip,
    icon,
    item.contextValue,
    item.accessibilityInformation?.label,
  ]);
}

/** Takes the record, re-renders, and says whether the row looks different. */
function rerender<R>(node: vscode.TreeItem, assign: (record: R) => void, render: () => void, record: R): boolean {
  const before = shown(node);
  assign(record);
  render();
  return shown(node) !== before;
}

export class FileNode extends vscode.TreeItem {
  readonly kind = 'file';
  readonly entityId: string;
  readonly parent: undefined = undefined;
  file: FileRecord;

  constructor(file: FileRecord) {
    super(fileLabel(file), vscode.TreeItemCollapsibleState.None);
    this.file = file;
    this.entityId = file.id;
    this.id = `file:${file.id}`;
    this.contextValue = 'file';
    this.render();
  }

  /** Takes a newer record of the same file; true when the row looks different. */
  update(file: FileRecord): boolean {
    return rerender(
      this,
      (r: FileRecord) => (this.file = r),
      () => this.render(),
      file,
    );
  }

  private render(): void {
    const opts = timeOptions();
    renderStoredFile(
      this,
      t('File'),
      fileLabel(this.file),
      fileDescriptionParts(this.file, opts),
      fileTooltip(this.file, t, opts),
    );
  }
}

export class TaskNode extends vscode.TreeItem {
  readonly kind = 'task';
  readonly entityId: string;
  readonly parent: undefined = undefined;
  task: TaskRecord;
  /** The task's runs, once expanded (loaded by the tasks provider). */
  children: PagedList<RunNode> | undefined;

  constructor(
    task: TaskRecord,
    /** The name of the task's project (never its id), when the task is in one and it is known. */
    private projectLabel?: string,
  ) {
    super(taskLabel(task), vscode.TreeItemCollapsibleState.Collapsed);
    this.task = task;
    this.entityId = task.id;
    this.id = `task:${task.id}`;
    this.contextValue = 'task';
    this.render();
  }

  get unfinished(): boolean {
    return isUnfinishedStatus(this.task.status);
  }

  /** Takes a newer record of the same task; true when the row looks different. */
  update(task: TaskRecord): boolean {
    return rerender(
      this,
      (r: TaskRecord) => (this.task = r),
      () => this.render(),
      task,
    );
  }

  /** Drops the loaded runs (and theirs): the next expand lists them afresh. */
  forgetChildren(): void {
    for (const run of this.children?.items ?? []) {
      run.forgetChildren();
    }
    this.children?.dispose();
    this.children = undefined;
  }

  /** Names the task's project; true when the row looks different. */
  setProjectLabel(label: string | undefined): boolean {
    if (label === this.projectLabel) {
      return false;
    }
    this.projectLabel = label;
    this.render();
    return true;
  }

  private render(): void {
    const opts = timeOptions();
    const project = this.projectLabel === undefined ? undefined : inert(this.projectLabel, PROJECT_LABEL_CHARS);
    const parts = [...taskDescriptionParts(this.task, t, opts), ...(project ? [project] : [])];
    this.label = taskLabel(this.task);
    this.description = joinDescription(parts);
    this.tooltip = taskTooltip(this.task, t, opts, project);
    this.iconPath = themeIcon(this.task.status);
    this.accessibilityInformation = { label: accessibilityLabel(t('Task'), taskLabel(this.task), parts) };
  }
}

/** A run row's part that comes from this workspace, not the server. */
export interface RunRowNotes {
  /** Its place in a chain of follow-ups (1 is the run first commented on). */
  revision?: number;
  /** Comments written on it and not sent yet. */
  drafts: number;
}

export class RunNode extends vscode.TreeItem {
  readonly kind = 'run';
  readonly entityId: string;
  readonly runId: string;
  readonly parent: TaskNode | undefined;
  run: RunRecord;
  /** The run's artifacts, once expanded (loaded by the tasks provider). */
  children: PagedList<ArtifactNode> | undefined;
  /** Its number among the task's runs, once the whole list is known. */
  private number: number | undefined;
  /** What this workspace adds: its revision in a chain of follow-ups, comments not sent yet. */
  private notes: RunRowNotes = { drafts: 0 };

  constructor(run: RunRecord, parent?: TaskNode) {
    super(runLabel(run, t), vscode.TreeItemCollapsibleState.Collapsed);
    this.run = run;
    this.runId = run.id;
    this.entityId = run.id;
    this.parent = parent;
    this.id = `run:${parent?.task.id ?? run.task_id ?? ''}:${run.id}`;
    // The objective with the run it belongs to, offered to the steering questions (only a row of
    // ours carries this key). Fixed here, not read from `this`: an object made from this row that
    // names another run still offers this run's id, so the objective is not taken for the other.
    const offered: RowObjective = {
      runId: run.id,
      get objective() {
        return parent?.task.objective;
      },
    };
    Object.defineProperty(this, ROW_OBJECTIVE, { value: offered });
    this.render();
  }

  /** The objective of the run's task, for titles (the run panel's). */
  get objective(): string | undefined {
    return this.parent?.task.objective;
  }

  get unfinished(): boolean {
    return isUnfinishedStatus(this.run.status);
  }

  /** Takes a newer record of the same run; true when the row looks different. */
  update(run: RunRecord): boolean {
    return rerender(
      this,
      (r: RunRecord) => (this.run = r),
      () => this.render(),
      run,
    );
  }

  setNumber(number: number | undefined): void {
    if (number === this.number) {
      return;
    }
    this.number = number;
    this.render();
  }

  /** True when the row looks different. */
  setNotes(notes: RunRowNotes): boolean {
    if (notes.drafts === this.notes.drafts && notes.revision === this.notes.revision) {
      return false;
    }
    this.notes = notes;
    this.render();
    return true;
  }

  forgetChildren(): void {
    this.children?.dispose();
    this.children = undefined;
  }

  private render(): void {
    const opts = timeOptions();
    const parts = runDescriptionParts(this.run, t, opts);
    if (this.notes.revision !== undefined) {
      parts.unshift(t('revision {0}', this.notes.revision));
    }
    if (this.notes.drafts > 0) {
      parts.push(this.notes.drafts === 1 ? t('1 comment to send') : t('{0} comments to send', this.notes.drafts));
    }
    // `run`, `active` while it can still change (Watch Run inline), then a flag for each run action
    // offered (src/runEvents/runActions.ts), and last `comments` when it has comments to send.
    // Menus for every run row match /^run/.
    this.contextValue = runContextValue(runFactsOf(this.run.status)) + (this.notes.drafts > 0 ? ' comments' : '');
    this.label = runLabel(this.run, t, this.number, opts);
    this.description = joinDescription(parts);
    this.tooltip = runTooltip(this.run, t, opts, this.objective);
    this.iconPath = themeIcon(this.run.status);
    this.accessibilityInformation = {
      label: accessibilityLabel(t('Run'), runLabel(this.run, t, this.number, opts), parts),
    };
  }
}

export class ArtifactNode extends vscode.TreeItem {
  readonly kind = 'artifact';
  readonly entityId: string;
  readonly parent: RunNode;
  artifact: ArtifactRecord;

  constructor(artifact: ArtifactRecord, parent: RunNode) {
    super(artifactLabel(artifact), vscode.TreeItemCollapsibleState.None);
    this.artifact = artifact;
    this.entityId = artifact.id;
    this.parent = parent;
    this.id = `artifact:${parent.runId}:${artifact.id}`;
    this.contextValue = 'artifact';
    // A click opens it, as a click on a file in the Explorer does.
    this.command = { command: Commands.openArtifact, title: t('Open Artifact'), arguments: [this] };
    this.render();
  }

  get runId(): string {
    return this.parent.runId;
  }

  /** Takes a newer record of the same artifact; true when the row looks different. */
  update(artifact: ArtifactRecord): boolean {
    return rerender(
      this,
      (r: ArtifactRecord) => (this.artifact = r),
      () => this.render(),
      artifact,
    );
  }

  private render(): void {
    const opts = timeOptions();
    renderStoredFile(
      this,
      t('Artifact'),
      artifactLabel(this.artifact),
      artifactDescriptionParts(this.artifact, opts),
      artifactTooltip(this.artifact, t, opts),
    );
  }
}

/** The row that fetches the next page of its level (or retries a failed one). */
export class LoadMoreNode extends vscode.TreeItem {
  readonly kind = 'loadMore';
  readonly view: SidebarView;
  readonly parent: TaskNode | RunNode | undefined;
  /** The listing this row belongs to; a row from before a refresh does nothing. */
  readonly generation: number;
  /** True when it retries a failed page rather than fetching the next one. */
  readonly retry: boolean;

  constructor(
    id: string,
    view: SidebarView,
    parent: TaskNode | RunNode | undefined,
    generation: number,
    retry: boolean,
  ) {
    const label = retry ? t('Retry') : t('Load more…');
    super(label, vscode.TreeItemCollapsibleState.None);
    this.view = view;
    this.parent = parent;
    this.generation = generation;
    this.retry = retry;
    this.id = id;
    this.contextValue = 'loadMore';
    this.iconPath = new vscode.ThemeIcon(retry ? 'refresh' : 'ellipsis');
    this.command = { command: Commands.loadMore, title: label, arguments: [this] };
    this.accessibilityInformation = { label, role: 'button' };
  }
}

export type MessageSeverity = 'info' | 'warning' | 'error';

/** A line of text in the tree: an error, "No runs yet", and so on. */
export class MessageNode extends vscode.TreeItem {
  readonly kind = 'message';
  readonly parent: TaskNode | RunNode | undefined;

  constructor(
    id: string,
    text: string,
    options: { parent?: TaskNode | RunNode; severity?: MessageSeverity; command?: vscode.Command } = {},
  ) {
    // Messages carry the service's error text: shown inert, like every outside string.
    const shown = inert(text);
    super(shown, vscode.TreeItemCollapsibleState.None);
    this.id = id;
    this.parent = options.parent;
    this.contextValue = 'message';
    this.tooltip = shown;
    const severity = options.severity ?? 'info';
    this.iconPath =
      severity === 'error'
        ? new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'))
        : severity === 'warning'
          ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
          : new vscode.ThemeIcon('info');
    this.command = options.command;
    this.accessibilityInformation = { label: shown };
  }
}

export type EntityNode = FileNode | TaskNode | RunNode | ArtifactNode;
export type TreeNode = EntityNode | LoadMoreNode | MessageNode;

export function isEntityNode(value: unknown): value is EntityNode {
  return (
    value instanceof FileNode || value instanceof TaskNode || value instanceof RunNode || value instanceof ArtifactNode
  );
}
