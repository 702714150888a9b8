// The sidebar's own commands: refresh (whole views or one row), retry after a connection
// problem, "Load more", and Show Artifacts (reveal a run's artifacts in the Tasks view).
import * as vscode from 'vscode';
import { type CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { nodeOf, runOf, taskOf } from '../commandSupport/nodeArgs';
import { Commands, SHOW_SIDEBAR_COMMAND } from '../common/ids';
import { notify } from '../common/notify';
import { isEntityNode, LoadMoreNode, type TreeNode } from '../views/nodes';
import type { Sidebar } from '../views/sidebar';
import { revealRun } from '../views/tasksReveal';

export function registerSidebarCommands(deps: CommandDeps, sidebar: Sidebar): vscode.Disposable[] {
  const { guard } = deps;
  return [
    vscode.commands.registerCommand(
      Commands.refreshFiles,
      guard('Refresh files', () => sidebar.files.refresh()),
    ),
    vscode.commands.registerCommand(
      Commands.refreshTasks,
      guard('Refresh tasks', () => sidebar.tasks.refresh()),
    ),
    vscode.commands.registerCommand(
      Commands.refreshItem,
      guard('Refresh', (node: unknown) => {
        if (!isTreeNode(node)) {
          return sidebar.refresh();
        }
        return sidebar.refreshNode(node);
      }),
    ),
    vscode.commands.registerCommand(
      Commands.retryConnection,
      guard('Retry', async () => {
        await deps.service.update();
        sidebar.refresh();
      }),
    ),
    vscode.commands.registerCommand(
      Commands.loadMore,
      guard('Load more', (node: unknown) => {
        if (!(node instanceof LoadMoreNode)) {
          throw new UserFacingError(vscode.l10n.t('Use the "Load more" row of a view.'));
        }
        return sidebar.loadMore(node);
      }),
    ),
    vscode.commands.registerCommand(
      Commands.showArtifacts,
      guard('Show artifacts', async (given: unknown) => {
        const arg = nodeOf(given, deps.selection('tasks'), runOf);
        const runId = runOf(arg)?.id ?? (arg as { runId?: unknown } | undefined)?.runId;
        if (typeof runId !== 'string') {
          throw new UserFacingError(vscode.l10n.t('Choose a run in the Tasks view first.'));
        }
        const taskId = runOf(arg)?.task_id ?? taskOf(arg)?.id;
        await vscode.commands.executeCommand(SHOW_SIDEBAR_COMMAND);
        const node = await revealRun(sidebar.tasks, () => deps.service.client, runId, {
          taskId: typeof taskId === 'string' ? taskId : undefined,
          focus: true,
        });
        if (!node) {
          void notify.info(vscode.l10n.t('Run {0} is not among the loaded tasks. Use "Load more" or Refresh.', runId));
        }
      }),
    ),
  ];
}

function isTreeNode(node: unknown): node is TreeNode {
  return isEntityNode(node) || node instanceof LoadMoreNode;
}
