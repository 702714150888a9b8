// The Tools, Connectors and Webhooks views and their commands (src/agentAccess/accessSetup.ts):
// what they contribute to package.json, declared once. Plain data, no vscode: `npm run
// contributions` writes package.json from it.
import type { FeatureContributions } from '../common/contributionTypes';

export const AGENT_ACCESS_CONTRIBUTIONS: FeatureContributions = {
  commands: [
    {
      id: 'agentRuntime.refreshTools',
      title: 'Refresh',
      icon: 'refresh',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.tools', group: 'navigation@2' }],
      },
    },
    {
      id: 'agentRuntime.searchTools',
      title: 'Search Tools...',
      icon: 'search',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.tools && agentRuntime.signedIn', group: 'navigation@1' }],
      },
    },
    {
      id: 'agentRuntime.openTool',
      title: 'Open Tool Description',
      icon: 'tools',
      palette: false,
      menus: {
        'view/item/context': [
          { when: 'view == agentRuntime.approvals && viewItem == approval', group: 'inline@3' },
          { when: 'view == agentRuntime.approvals && viewItem == approval', group: '2_tool@1' },
        ],
      },
    },
    {
      id: 'agentRuntime.openToolInvocation',
      title: 'Open Tool Call Record',
      palette: false,
    },
    {
      id: 'agentRuntime.loadMoreTools',
      title: 'Load More Tools',
      palette: false,
    },
    {
      id: 'agentRuntime.refreshConnectors',
      title: 'Refresh',
      icon: 'refresh',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.connectors', group: 'navigation@1' }],
      },
    },
    {
      id: 'agentRuntime.revokeGrant',
      title: 'Revoke Grant...',
      icon: 'close',
      palette: false,
      menus: {
        'view/item/context': [{ when: 'view == agentRuntime.connectors && viewItem == grant', group: 'inline@1' }],
      },
    },
    {
      id: 'agentRuntime.revokeConnector',
      title: 'Revoke Connector...',
      icon: 'debug-disconnect',
      palette: false,
      menus: {
        'view/item/context': [
          { when: 'view == agentRuntime.connectors && viewItem == connector', group: '9_revoke@1' },
        ],
      },
    },
    {
      id: 'agentRuntime.loadMoreConnectors',
      title: 'Load More Connectors',
      palette: false,
    },
    {
      id: 'agentRuntime.refreshWebhooks',
      title: 'Refresh',
      icon: 'refresh',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.webhooks', group: 'navigation@2' }],
      },
    },
    {
      id: 'agentRuntime.createWebhook',
      title: 'Create Webhook...',
      icon: 'add',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.webhooks && agentRuntime.signedIn', group: 'navigation@1' }],
      },
    },
    {
      id: 'agentRuntime.testWebhook',
      title: 'Send Test Delivery',
      icon: 'debug-start',
      palette: false,
      menus: {
        'view/item/context': [{ when: 'view == agentRuntime.webhooks && viewItem == webhook', group: 'inline@1' }],
      },
    },
    {
      id: 'agentRuntime.deleteWebhook',
      title: 'Delete Webhook...',
      icon: 'trash',
      palette: false,
      menus: {
        'view/item/context': [{ when: 'view == agentRuntime.webhooks && viewItem == webhook', group: 'inline@2' }],
      },
    },
    {
      id: 'agentRuntime.loadMoreWebhooks',
      title: 'Load More Webhooks',
      palette: false,
    },
  ],
  views: [
    {
      id: 'agentRuntime.tools',
      name: 'Tools',
      container: 'agentRuntime',
      position: 5,
      icon: 'media/activity.svg',
      visibility: 'collapsed',
      welcome: [
        {
          when: '!agentRuntime.signedIn',
          contents: 'Sign in to see the tools the agent may call.\n[Sign In](command:agentRuntime.signIn)',
        },
      ],
    },
    {
      id: 'agentRuntime.connectors',
      name: 'Connectors',
      container: 'agentRuntime',
      position: 6,
      icon: 'media/activity.svg',
      visibility: 'collapsed',
      welcome: [
        {
          when: '!agentRuntime.signedIn',
          contents: 'Sign in to see what the agent can reach.\n[Sign In](command:agentRuntime.signIn)',
        },
      ],
    },
    {
      id: 'agentRuntime.webhooks',
      name: 'Webhooks',
      container: 'agentRuntime',
      position: 7,
      icon: 'media/activity.svg',
      visibility: 'collapsed',
      welcome: [
        {
          when: '!agentRuntime.signedIn',
          contents: "Sign in to manage the service's webhooks.\n[Sign In](command:agentRuntime.signIn)",
        },
      ],
    },
  ],
};
