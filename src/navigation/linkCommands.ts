// "Copy Link": a link to a run (from its row in the Tasks view) or to one of its events (the run
// panel's row menu, or any caller passing (runId, sequence) or {runId, sequence}).
import * as vscode from 'vscode';
import type { CommandDeps } from '../commandSupport/commandDeps';
import { UserFacingError } from '../commandSupport/commandErrors';
import { resolveRun } from '../commandSupport/runArgs';
import { Commands } from '../common/ids';
import { inert } from '../common/inertText';
import { externalRunLink } from '../links/externalLink';
import { isSequence } from '../links/runLink';

export function registerLinkCommands(deps: CommandDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(
      Commands.copyRunLink,
      deps.guard('Copy link', async (given?: unknown, sequenceArg?: unknown) => {
        const run = resolveRun(given, { selection: deps.selection('tasks'), activePanel: deps.activeRunPanel });
        if (!run) {
          throw new UserFacingError(vscode.l10n.t('Choose a run in the Tasks view first.'));
        }
        const { runId } = run;
        // From a tree row the second argument is the selection (an array): no event then.
        const sequence = typeof sequenceArg === 'number' ? sequenceArg : run.given.sequence;
        if (sequence !== undefined && !isSequence(sequence)) {
          throw new UserFacingError(vscode.l10n.t('The event number must be a whole number from 1.'));
        }
        const link = await externalRunLink({ runId, sequence });
        await vscode.env.clipboard.writeText(link);
        vscode.window.setStatusBarMessage(
          inert(
            sequence === undefined
              ? vscode.l10n.t('Link to the run copied')
              : vscode.l10n.t('Link to event {0} copied', sequence),
          ),
          3000,
        );
        return link;
      }),
    ),
  ];
}
