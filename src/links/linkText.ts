// The sentences "Go to…" and the link handler show for input they refuse or records they do not
// find. Pure: takes the translation function (vscode.l10n.t in the editor), so mocha checks them.
import { shortenText } from '../common/format';
import { inert } from '../common/inertText';
import type { Translate } from '../common/translate';
import type { GoToKind, GoToProblem } from './goToInput';

/** How much of a refused input a message repeats. */
const ECHO_MAX = 60;

/** The input as a message may show it: one inert line, shortened. */
export function echo(text: string): string {
  return inert(shortenText(text.replace(/\s+/g, ' ').trim(), ECHO_MAX));
}

/** Why the quick pick cannot go to what was typed, and what would work. */
export function problemText(problem: GoToProblem, t: Translate): string {
  switch (problem) {
    case 'empty':
      return t('Paste or type an id: task_…, run_…, file_…, art_…, or a run link.');
    case 'tooLong':
      return t('That is too long to be an id or a run link.');
    case 'unknownPrefix':
      return t('Not an id this extension knows: ids start with task_, run_, file_ or art_.');
    case 'badCharacters':
      return t('An id has only letters, digits, "_" and "-" after its prefix.');
    case 'notOurs':
      return t('This link is not an Agent Runtime run link.');
    case 'notARunLink':
      return t('Only run links can be opened here (…/run/run_…#sequence).');
    case 'badRunId':
      return t('The link does not name a valid run id.');
    case 'badSequence':
      return t('The event number after "#" must be a whole number from 1.');
  }
}

/** "No task with id X" and the next step. */
export function notFoundText(kind: GoToKind, id: string, t: Translate): string {
  const shown = echo(id);
  switch (kind) {
    case 'task':
      return t(
        'No task with id {0}. Check the id, or whether it comes from another server (Settings: base URL).',
        shown,
      );
    case 'run':
      return t(
        'No run with id {0}. Check the id, or whether it comes from another server (Settings: base URL).',
        shown,
      );
    case 'file':
      return t(
        'No file with id {0}. It may have been deleted, or it comes from another server (Settings: base URL).',
        shown,
      );
    case 'artifact':
      return t('No artifact with id {0} in that run. Check both ids.', shown);
  }
}

/**
 * The artifact list of the run went on past what "Go to…" reads: saying "no artifact" would be
 * wrong, so say how far it looked and where the rest can be seen.
 */
export function stoppedLookingText(id: string, searched: number, t: Translate): string {
  return t(
    'Artifact {0} is not among the first {1} artifacts of that run, and "Go to…" stops looking there. Open the run and find it in its Artifacts section.',
    echo(id),
    String(searched),
  );
}

/** What the quick pick's row says it will open. */
export function kindText(kind: GoToKind, t: Translate): string {
  switch (kind) {
    case 'task':
      return t('Task');
    case 'run':
      return t('Run');
    case 'file':
      return t('File');
    case 'artifact':
      return t('Artifact');
  }
}
