// "Copy Link": a link to a run (from its row in the Tasks view) or to one of its events (the run
// panel's row menu, or any caller passing (runId, sequence) or {runId, sequence}).
import * as vscode from 'vscode';
import { Commands } from '../common/ids';
import { inert } from '../common/inertText';
import { externalRunLink } from '../links/externalLink';
import { isSequence } from '../links/runLink';
import { isRunId } from '../runEvents/ids';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { nodeOf, runOf } from '../commandSupport/nodeArgs';

export function registerLinkCommands(deps: CommandDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(Commands.copyRunLink, deps.guard('Copy link', async (given?: unknown, sequenceArg?: unknown) => {
      const arg = nodeOf(given, deps.selection('tasks'), runOf);
      const object = typeof arg === 'object' && arg !== null ? (arg as { runId?: unknown; sequence?: unknown }) : undefined;
      const runId = typeof arg === 'string' ? arg : (runOf(arg)?.id ?? object?.runId);
      // From a tree row the second argument is the selection (an array): no event then.
      const sequence = typeof sequenceArg === 'number' ? sequenceArg : object?.sequence;
      if (!isRunId(runId)) throw new UserFacingError(vscode.l10n.t('Choose a run in the Tasks view first.'));
      if (sequence !== undefined && !isSequence(sequence)) {
        throw new UserFacingError(vscode.l10n.t('The event number must be a whole number from 1.'));
      }
      const link = await externalRunLink({ runId, sequence });
      await vscode.env.clipboard.writeText(link);
      vscode.window.setStatusBarMessage(inert(sequence === undefined ? vscode.l10n.t('Link to the run copied') : vscode.l10n.t('Link to event {0} copied', sequence)), 3000);
      return link;
    })),
  ];
}
