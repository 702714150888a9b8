// The actions a person takes on one run, in one table. Each row drives every surface that offers
// it: the Tasks view's run rows (combinable flags in the row's contextValue, matched by the menus
// with `viewItem =~`), the run panel's buttons (one `runAction` message carrying the id), and the
// manifest: `runActionContributions` makes each row's command, `view/item/context` and
// `commandPalette` entries, which `npm run contributions` writes into package.json.
// Adding an action: a row here, its handler (a command registered by its feature), and its strings
// (the English here; the German in package.nls.de.json and l10n/bundle.l10n.de.json).
// Pure: no vscode, no DOM.
import type { CommandDeclaration, FeatureContributions, OurId } from '../common/contributionTypes';
import type { Translate } from '../common/translate';
import { isResumableStatus, isUnfinishedStatus } from './runStatus';

/** What a row knows of the run: its status, and whether it has ended (a terminal status or event). */
export interface RunFacts {
  status?: string;
  ended: boolean;
}

/** What the service offers: false when it answered the steering endpoints 404/405. */
export interface ServiceFacts {
  steering: boolean;
}

export interface RunAction {
  /** The flag in a row's contextValue and the `action` of the panel's message. */
  id: string;
  command: OurId;
  /** The command's English title (the tree's menu and the palette; German in package.nls.de.json). */
  title: string;
  /** A codicon id. */
  icon: string;
  /**
   * The panel button's label, English in a `t('...')` call (`npm run l10n:export` finds it; the
   * host sends it translated as the panel string `runAction.<id>`, see runPanel/uiStrings.ts).
   */
  label: (t: Translate) => string;
  /** The panel button's element id (the page and UI tests find it by it). */
  domId: string;
  /** Where the panel shows it: the header, or beside the expanded event (the action takes its sequence). */
  panel: 'header' | 'event';
  /** Needs the service's steering endpoints: hidden everywhere when the service has none. */
  steering: boolean;
  /** The tree's menu group (`view/item/context`), and whether the row also shows it inline. */
  group: string;
  inline?: string;
  offered(run: RunFacts, service: ServiceFacts): boolean;
}

const steers = (service: ServiceFacts): boolean => service.steering;

export const RUN_ACTIONS: readonly RunAction[] = [
  {
    id: 'cancel',
    command: 'agentRuntime.cancelRun',
    title: 'Cancel Run',
    icon: 'debug-stop',
    label: (t: Translate) => t('Cancel run'),
    domId: 'cancel-run',
    panel: 'header',
    steering: true,
    group: '3_steer@1',
    inline: 'inline@2',
    offered: (run, service) => steers(service) && !run.ended,
  },
  {
    id: 'resume',
    command: 'agentRuntime.resumeRun',
    title: 'Resume Run...',
    icon: 'debug-continue',
    label: (t: Translate) => t('Resume…'),
    domId: 'resume-run',
    panel: 'header',
    steering: true,
    group: '3_steer@2',
    offered: (run, service) => steers(service) && run.ended && isResumableStatus(run.status),
  },
  {
    id: 'review',
    command: 'agentRuntime.reviewChanges',
    title: 'Review Changes',
    icon: 'diff-multiple',
    label: (t: Translate) => t('Review Changes'),
    domId: 'review-changes',
    panel: 'header',
    steering: false,
    group: '1_run@3',
    offered: (run) => run.ended,
  },
  {
    id: 'fork',
    command: 'agentRuntime.forkRun',
    title: 'Fork Run...',
    icon: 'repo-forked',
    label: (t: Translate) => t('Fork from here…'),
    domId: 'fork-from-here',
    panel: 'event',
    steering: true,
    group: '3_steer@3',
    offered: (_run, service) => steers(service),
  },
];

export type RunActionId = string;

export function runActionById(id: unknown, actions: readonly RunAction[] = RUN_ACTIONS): RunAction | undefined {
  return actions.find((a) => a.id === id);
}

/** The facts of a run record as the tree sees it: ended unless its status may still change. */
export function runFactsOf(status: unknown): RunFacts {
  return { status: typeof status === 'string' ? status : undefined, ended: !isUnfinishedStatus(status) };
}

/**
 * A run row's contextValue: `run`, `active` while it may change, then the id of every action
 * offered (steering assumed offered: the menus add `!agentRuntime.steeringUnsupported`).
 */
export function runContextValue(run: RunFacts, actions: readonly RunAction[] = RUN_ACTIONS): string {
  const flags = actions.filter((a) => a.offered(run, { steering: true })).map((a) => a.id);
  return ['run', ...(run.ended ? [] : ['active']), ...flags].join(' ');
}

/** The `when` clause part that matches a run row carrying `flag`. */
export function runRowMatches(flag: string): string {
  return `viewItem =~ /^run( \\w+)* ${flag}( |$)/`;
}

const STEERING_OFFERED = '!agentRuntime.steeringUnsupported';

export interface MenuEntry {
  command: string;
  when: string;
  group: string;
}

/** The `view/item/context` entries a row needs (the inline one first, then the context menu's). */
export function treeMenuEntries(action: RunAction): MenuEntry[] {
  const when = [runRowMatches(action.id), ...(action.steering ? [STEERING_OFFERED] : [])].join(' && ');
  return [
    ...(action.inline ? [{ command: action.command, when, group: action.inline }] : []),
    { command: action.command, when, group: action.group },
  ];
}

/** The Command Palette's `when` for a row: signed in, and the service steers when the row needs it. */
export function paletteWhen(action: RunAction): string {
  return ['agentRuntime.signedIn', ...(action.steering ? [STEERING_OFFERED] : [])].join(' && ');
}

/** The panel string that carries a row's label (runPanel/uiStrings.ts). */
export type RunActionLabelKey = `runAction.${string}`;

export function runActionLabelKey(action: RunAction): RunActionLabelKey {
  return `runAction.${action.id}`;
}

/** Every row's panel label, by its panel string key. */
export function runActionLabels(
  t: Translate,
  actions: readonly RunAction[] = RUN_ACTIONS,
): Record<RunActionLabelKey, string> {
  return Object.fromEntries(actions.map((a) => [runActionLabelKey(a), a.label(t)]));
}

/** The commands the rows need, with the menu and palette entries above: what package.json gets. */
export function runActionContributions(actions: readonly RunAction[] = RUN_ACTIONS): FeatureContributions {
  const commands = actions.map((action): CommandDeclaration => ({
    id: action.command,
    title: action.title,
    icon: action.icon,
    palette: paletteWhen(action),
    menus: { 'view/item/context': treeMenuEntries(action).map(({ when, group }) => ({ when, group })) },
  }));
  return { commands };
}

/** The panel's actions offered now, in table order, for one placement. */
export function panelActions(
  run: RunFacts,
  service: ServiceFacts,
  placement: RunAction['panel'],
  actions: readonly RunAction[] = RUN_ACTIONS,
): RunAction[] {
  return actions.filter((a) => a.panel === placement && a.offered(run, service));
}
