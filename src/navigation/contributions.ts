// Go to and Copy Link (src/navigation/goToCommand.ts, linkCommands.ts): what they contribute to
// package.json, declared once. Plain data, no vscode: `npm run contributions` writes package.json
// from it.
import type { FeatureContributions } from '../common/contributionTypes';

export const NAVIGATION_CONTRIBUTIONS: FeatureContributions = {
  commands: [
    {
      id: 'agentRuntime.goTo',
      title: 'Go to…',
      icon: 'go-to-file',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/title': [
          { when: 'view == agentRuntime.files && agentRuntime.signedIn', group: 'navigation@5' },
          { when: 'view == agentRuntime.tasks && agentRuntime.signedIn', group: 'navigation@5' },
        ],
      },
      keybindings: [
        {
          key: 'ctrl+g',
          mac: 'cmd+g',
          when: 'agentRuntime.signedIn && (focusedView == agentRuntime.tasks || focusedView == agentRuntime.files)',
        },
      ],
    },
    {
      id: 'agentRuntime.copyRunLink',
      title: 'Copy Link',
      icon: 'link',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/item/context': [{ when: 'view == agentRuntime.tasks && viewItem =~ /^run/', group: '8_copy@2' }],
      },
    },
  ],
};
