// The commands of projects bound to git repositories (src/projects/projectLoader.ts): what they
// contribute to package.json, declared once. Plain data, no vscode: `npm run contributions` writes
// package.json from it.
import type { FeatureContributions } from '../common/contributionTypes';

export const PROJECT_CONTRIBUTIONS: FeatureContributions = {
  commands: [
    {
      id: 'agentRuntime.createProjectForRepository',
      title: 'Create Project for This Repository',
      icon: 'repo',
      palette: 'agentRuntime.signedIn && !agentRuntime.projectsUnsupported',
      menus: {
        'scm/title': [
          {
            when: 'scmProvider == git && agentRuntime.signedIn && !agentRuntime.projectsUnsupported',
            group: '7_agentRuntime@1',
          },
        ],
      },
    },
    {
      id: 'agentRuntime.newTaskInProject',
      title: 'New Task in Project...',
      icon: 'rocket',
      palette: 'agentRuntime.signedIn && !agentRuntime.projectsUnsupported',
      menus: {
        'scm/title': [
          {
            when: 'scmProvider == git && agentRuntime.signedIn && !agentRuntime.projectsUnsupported',
            group: 'navigation@9',
          },
        ],
        'explorer/context': [
          {
            when: 'explorerResourceIsFolder && agentRuntime.signedIn && !agentRuntime.projectsUnsupported && config.git.enabled',
            group: '7_agentRuntime@3',
          },
        ],
      },
    },
    {
      id: 'agentRuntime.toggleProjectTasks',
      title: "Show Only This Folder's Project's Tasks (Toggle)",
      icon: 'repo',
      palette: 'agentRuntime.signedIn && !agentRuntime.projectsUnsupported',
      menus: {
        'view/title': [
          {
            when: 'view == agentRuntime.tasks && agentRuntime.signedIn && !agentRuntime.projectsUnsupported',
            group: 'navigation@6',
          },
        ],
      },
    },
    {
      id: 'agentRuntime.applyToNewBranch',
      title: 'Apply to a New Branch...',
      icon: 'git-branch',
      palette: 'agentRuntime.signedIn && !agentRuntime.projectsUnsupported',
      menus: {
        'view/item/context': [{ when: 'viewItem =~ /^run/ && !agentRuntime.projectsUnsupported', group: '1_run@5' }],
      },
    },
  ],
};
