// Every feature's package.json contributions, in the order package.json lists them: the one list
// `npm run contributions` (scripts/generate-contributions.js) builds package.json's commands,
// menus, keybindings, views and welcome content, the English of package.nls.json and
// src/common/commandIds.generated.ts from. Plain data, no vscode. A new feature file goes here.
import { AGENT_ACCESS_CONTRIBUTIONS } from './agentAccess/contributions';
import { COMMAND_CONTRIBUTIONS } from './commands/contributions';
import { buildContributions, type BuiltContributions, type DeclaredFeature } from './common/buildContributions';
import { MEMORY_CONTRIBUTIONS } from './memory/contributions';
import { NAVIGATION_CONTRIBUTIONS } from './navigation/contributions';
import { PROJECT_CONTRIBUTIONS } from './projects/contributions';
import { REVIEW_TALK_CONTRIBUTIONS } from './reviewTalk/contributions';
import { REVIEW_CONTRIBUTIONS } from './reviewUi/contributions';
import { RUN_ACTIONS, type RunAction, runActionContributions } from './runEvents/runActions';
import { RUN_PANEL_CONTRIBUTIONS } from './runPanel/contributions';
import { STEERING_CONTRIBUTIONS } from './steering/contributions';
import { VIEW_CONTRIBUTIONS } from './views/contributions';

/** The features, in order; `runActions` replaces the run-action table (the tests pass a table with a row added). */
export function declaredFeatures(runActions: readonly RunAction[] = RUN_ACTIONS): DeclaredFeature[] {
  return [
    { source: 'src/views/contributions.ts', contributions: VIEW_CONTRIBUTIONS },
    { source: 'src/commands/contributions.ts', contributions: COMMAND_CONTRIBUTIONS },
    { source: 'src/runPanel/contributions.ts', contributions: RUN_PANEL_CONTRIBUTIONS },
    { source: 'src/reviewUi/contributions.ts', contributions: REVIEW_CONTRIBUTIONS },
    { source: 'src/runEvents/runActions.ts', contributions: runActionContributions(runActions) },
    { source: 'src/steering/contributions.ts', contributions: STEERING_CONTRIBUTIONS },
    { source: 'src/navigation/contributions.ts', contributions: NAVIGATION_CONTRIBUTIONS },
    { source: 'src/memory/contributions.ts', contributions: MEMORY_CONTRIBUTIONS },
    { source: 'src/agentAccess/contributions.ts', contributions: AGENT_ACCESS_CONTRIBUTIONS },
    { source: 'src/projects/contributions.ts', contributions: PROJECT_CONTRIBUTIONS },
    { source: 'src/reviewTalk/contributions.ts', contributions: REVIEW_TALK_CONTRIBUTIONS },
  ];
}

/** What the declarations make of package.json's generated parts. */
export function declaredContributions(runActions: readonly RunAction[] = RUN_ACTIONS): BuiltContributions {
  return buildContributions(declaredFeatures(runActions));
}
