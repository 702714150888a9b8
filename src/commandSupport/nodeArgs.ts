// What a command receives from the sidebar, an editor or the palette, reduced to records.
// Tree nodes are matched by shape (a `file`, `task`, `run` or `artifact` record), so commands do
// not depend on the view classes and also accept plain objects from tests and the run panel.
import * as vscode from 'vscode';
import { type ArtifactRecord, type FileRecord, type RunRecord, type TaskRecord } from '../api/types';

function record<T extends { id: string }>(value: unknown, key: string): T | undefined {
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  const inner = (value as Record<string, unknown>)[key];
  if (typeof inner === 'object' && inner !== null && typeof (inner as { id?: unknown }).id === 'string') {
    return inner as T;
  }
  return undefined;
}

/**
 * The key under which a run row the extension drew (the Tasks view's RunNode) offers its run's id
 * and its task's objective. A symbol of this module: a command argument from another extension, a
 * command link or a test's plain object cannot carry it, so a question names the run by an
 * objective only this extension read from the service, never by one an outside caller made up;
 * and the id it came with must be the run the command acts on (an object made from a real row with
 * another `run` would otherwise pair one task's objective with another run).
 */
export const ROW_OBJECTIVE: unique symbol = Symbol('agentRuntime.rowObjective');

/** What a row offers under ROW_OBJECTIVE. */
export interface RowObjective {
  runId: string;
  objective: string | undefined;
}

/** The objective a row of this extension's views offers for `runId` (see ROW_OBJECTIVE); undefined otherwise. */
export function rowObjective(arg: unknown, runId: string): string | undefined {
  if (typeof arg !== 'object' || arg === null) {
    return undefined;
  }
  const offered = (arg as { [ROW_OBJECTIVE]?: unknown })[ROW_OBJECTIVE];
  if (typeof offered !== 'object' || offered === null) {
    return undefined;
  }
  const { runId: offeredFor, objective } = offered as Partial<RowObjective>;
  return offeredFor === runId && typeof objective === 'string' && objective.trim() !== '' ? objective : undefined;
}

export const fileOf = (arg: unknown) => record<FileRecord>(arg, 'file');
export const taskOf = (arg: unknown) => record<TaskRecord>(arg, 'task');
export const runOf = (arg: unknown) => record<RunRecord>(arg, 'run');
export const artifactOf = (arg: unknown) => record<ArtifactRecord>(arg, 'artifact');

/** The id a node stands for: `entityId`, or the id of the record it carries. */
export function entityIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') {
    return arg;
  }
  if (typeof arg === 'object' && arg !== null) {
    const entityId = (arg as { entityId?: unknown }).entityId;
    if (typeof entityId === 'string') {
      return entityId;
    }
  }
  return (fileOf(arg) ?? taskOf(arg) ?? runOf(arg) ?? artifactOf(arg))?.id;
}

/*
 * What a sidebar command acts on, the one rule: the row(s) it was given, else the rows selected in
 * its view now (`current`, CommandDeps.selection). A command comes without a row from the Command
 * Palette or a keybinding; only with nothing fitting selected does it say "Choose ... first.".
 * Not a fallback for a right-click whose row handle a refresh dropped: VS Code looks that handle
 * and TreeView.selection up in the same element table, so the selection is empty then too.
 */

/**
 * The nodes a tree command acts on: VS Code passes (clicked, selected[]) for multi-select,
 * the clicked node alone otherwise; neither: the view's current selection.
 */
export function selectionOf(clicked: unknown, selected: unknown, current: readonly unknown[] = []): unknown[] {
  if (Array.isArray(selected) && selected.length > 0) {
    return selected;
  }
  if (clicked !== undefined) {
    return [clicked];
  }
  return [...current];
}

/**
 * The one node a single-row command acts on: what it was given (a row, an id, `{ runId }`), else
 * the first selected row that `fits` (e.g. runOf: a task row selected beside it is not a run).
 */
export function nodeOf(given: unknown, current: readonly unknown[], fits: (node: unknown) => unknown): unknown {
  if (given !== undefined) {
    return given;
  }
  return current.find((node) => fits(node) !== undefined);
}

/** The file URIs of an Explorer or editor invocation: (clicked, selected[]) or a single Uri. */
export function urisOf(clicked: unknown, selected: unknown): vscode.Uri[] {
  const all = selectionOf(clicked, selected);
  return all.filter((u): u is vscode.Uri => u instanceof vscode.Uri);
}
