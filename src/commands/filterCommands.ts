// "Filter…" and "Clear Filter" of the Files and Tasks views (the filter itself: src/views/viewFilter.ts).
import * as vscode from 'vscode';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { Commands } from '../common/ids';
import type { Sidebar } from '../views/sidebar';
import type { ViewFilter } from '../views/viewFilter';

export function registerFilterCommands(deps: CommandDeps, sidebar: Sidebar): vscode.Disposable[] {
  const ask = async (filter: ViewFilter, title: string, prompt: string, text: unknown): Promise<string | undefined> => {
    // A caller passing the text (automation, a test) is not asked.
    const query =
      typeof text === 'string' ? text : await vscode.window.showInputBox({ title, prompt, value: filter.query ?? '' });
    if (query === undefined) {
      return filter.query;
    }
    await filter.setQuery(query);
    return filter.query;
  };
  return [
    vscode.commands.registerCommand(
      Commands.filterTasks,
      deps.guard('Filter tasks', (text?: unknown) =>
        ask(
          sidebar.tasksFilter,
          vscode.l10n.t('Filter Tasks'),
          vscode.l10n.t('Words to find in the objective, status or id, across pages. Empty shows every task.'),
          text,
        ),
      ),
    ),
    vscode.commands.registerCommand(
      Commands.filterFiles,
      deps.guard('Filter files', (text?: unknown) =>
        ask(
          sidebar.filesFilter,
          vscode.l10n.t('Filter Files'),
          vscode.l10n.t('Words to find in the name, purpose or id, across pages. Empty shows every file.'),
          text,
        ),
      ),
    ),
    vscode.commands.registerCommand(
      Commands.clearTasksFilter,
      deps.guard('Clear tasks filter', () => sidebar.tasksFilter.setQuery(undefined)),
    ),
    vscode.commands.registerCommand(
      Commands.clearFilesFilter,
      deps.guard('Clear files filter', () => sidebar.filesFilter.setQuery(undefined)),
    ),
  ];
}
