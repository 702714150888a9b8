// The Needs You view, its approval commands (src/steering/approvalCommands.ts) and its commands for
// a run at its spending cap (src/steering/capCommands.ts); Cancel, Resume
// and Fork are run actions (src/runEvents/runActions.ts): what they contribute to package.json,
// declared once. Plain data, no vscode: `npm run contributions` writes package.json from it.
import type { FeatureContributions } from '../common/contributionTypes';

export const STEERING_CONTRIBUTIONS: FeatureContributions = {
  commands: [
    {
      id: 'agentRuntime.approveToolCall',
      title: 'Approve',
      icon: 'check',
      palette: false,
      menus: {
        'view/item/context': [
          { when: 'view == agentRuntime.approvals && viewItem == approval', group: 'inline@1' },
          { when: 'view == agentRuntime.approvals && viewItem == approval', group: '1_decide@1' },
        ],
      },
    },
    {
      id: 'agentRuntime.denyToolCall',
      title: 'Deny',
      icon: 'close',
      palette: false,
      menus: {
        'view/item/context': [
          { when: 'view == agentRuntime.approvals && viewItem == approval', group: 'inline@2' },
          { when: 'view == agentRuntime.approvals && viewItem == approval', group: '1_decide@2' },
        ],
      },
    },
    {
      id: 'agentRuntime.decideApproval',
      title: 'Decide Tool Call',
      icon: 'question',
      palette: false,
    },
    {
      id: 'agentRuntime.raiseCap',
      title: 'Raise the Cap...',
      icon: 'arrow-up',
      palette: false,
      menus: {
        'view/item/context': [
          { when: 'view == agentRuntime.approvals && viewItem == runAtCap', group: 'inline@1' },
          { when: 'view == agentRuntime.approvals && viewItem == runAtCap', group: '1_decide@1' },
        ],
      },
    },
    {
      id: 'agentRuntime.stopRunAtCap',
      title: 'Stop the Run',
      icon: 'debug-stop',
      palette: false,
      menus: {
        'view/item/context': [
          { when: 'view == agentRuntime.approvals && viewItem == runAtCap', group: 'inline@2' },
          { when: 'view == agentRuntime.approvals && viewItem == runAtCap', group: '1_decide@2' },
        ],
      },
    },
    {
      id: 'agentRuntime.refreshApprovals',
      title: 'Refresh',
      icon: 'refresh',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.approvals', group: 'navigation@1' }],
      },
    },
  ],
  views: [
    {
      id: 'agentRuntime.approvals',
      name: 'Needs You',
      container: 'agentRuntime',
      position: 1,
      icon: 'media/activity.svg',
      when: 'agentRuntime.signedIn && !agentRuntime.steeringUnsupported',
    },
  ],
};
