// Review Changes' commands on an open review (src/reviewUi/reviewLoader.ts); Review Changes itself
// is a run action (src/runEvents/runActions.ts): what they contribute to package.json, declared
// once. Plain data, no vscode: `npm run contributions` writes package.json from it.
import type { FeatureContributions } from '../common/contributionTypes';

export const REVIEW_CONTRIBUTIONS: FeatureContributions = {
  commands: [
    {
      id: 'agentRuntime.applyReviewChanges',
      title: 'Apply Changes',
      icon: 'check-all',
      palette: 'agentRuntime.reviewOpen',
      menus: {
        'editor/title': [{ when: 'resourceScheme == agent-runtime-review', group: 'navigation@1' }],
      },
    },
    {
      id: 'agentRuntime.chooseReviewChanges',
      title: 'Apply Chosen Changes...',
      icon: 'checklist',
      palette: 'agentRuntime.reviewOpen',
      menus: {
        'editor/title': [{ when: 'resourceScheme == agent-runtime-review', group: 'navigation@2' }],
      },
    },
    {
      id: 'agentRuntime.reviewChangesSinceRevision',
      title: 'Changes Since Previous Revision',
      icon: 'git-compare',
      palette: 'agentRuntime.reviewIsRevision',
      menus: {
        'editor/title': [
          {
            when: 'resourceScheme == agent-runtime-review && agentRuntime.reviewIsRevision',
            group: '1_revision@1',
          },
        ],
      },
    },
    {
      id: 'agentRuntime.markReviewFileReviewed',
      title: 'Mark File as Reviewed',
      icon: 'pass',
      palette: 'agentRuntime.reviewOpen',
      menus: {
        'editor/title': [{ when: 'resourceScheme == agent-runtime-review', group: '1_revision@2' }],
      },
    },
    {
      id: 'agentRuntime.saveReviewPatch',
      title: 'Save Changes as Patch...',
      icon: 'save-as',
      palette: 'agentRuntime.reviewOpen',
    },
  ],
};
