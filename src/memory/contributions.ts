// The Memory view and its commands (src/memory/memorySetup.ts): what they contribute to
// package.json, declared once. Plain data, no vscode: `npm run contributions` writes package.json
// from it.
import type { FeatureContributions } from '../common/contributionTypes';

export const MEMORY_CONTRIBUTIONS: FeatureContributions = {
  commands: [
    {
      id: 'agentRuntime.searchMemory',
      title: 'Search Memory...',
      icon: 'search',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.memory && agentRuntime.signedIn', group: 'navigation@1' }],
      },
    },
    {
      id: 'agentRuntime.rememberSelection',
      title: 'Remember Selection',
      palette: 'agentRuntime.signedIn && editorHasSelection',
      menus: {
        'editor/context': [{ when: 'editorHasSelection && agentRuntime.signedIn', group: '7_agentRuntime@3' }],
      },
    },
    {
      id: 'agentRuntime.deleteMemory',
      title: 'Delete Memory',
      icon: 'trash',
      palette: 'agentRuntime.signedIn && resourceScheme == agent-runtime-memory',
      menus: {
        'view/item/context': [
          { when: 'view == agentRuntime.memory && viewItem == memoryEntry', group: 'inline@1' },
          { when: 'view == agentRuntime.memory && viewItem == memoryEntry', group: '9_delete@1' },
        ],
        'editor/title': [{ when: 'resourceScheme == agent-runtime-memory', group: 'navigation@9' }],
      },
    },
    {
      id: 'agentRuntime.refreshMemory',
      title: 'Refresh',
      icon: 'refresh',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.memory', group: 'navigation@3' }],
      },
    },
    {
      id: 'agentRuntime.filterMemory',
      title: 'Filter Memory by Tag or Project...',
      icon: 'filter',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.memory && agentRuntime.signedIn', group: 'navigation@2' }],
      },
    },
    {
      id: 'agentRuntime.loadMoreMemory',
      title: 'Load More Memories',
      palette: false,
    },
    {
      id: 'agentRuntime.openMemory',
      title: 'Open Memory',
      palette: false,
    },
  ],
  views: [
    {
      id: 'agentRuntime.memory',
      name: 'Memory',
      container: 'agentRuntime',
      position: 4,
      icon: 'media/activity.svg',
      welcome: [
        {
          when: '!agentRuntime.signedIn',
          contents: 'Sign in to see and correct what the agent remembers.\n[Sign In](command:agentRuntime.signIn)',
        },
      ],
    },
  ],
};
