// The sidebar's container and its Files and Tasks views with their welcome content (src/views/), as
// contributed to package.json. Plain data, no vscode: `npm run contributions` writes package.json from it.
import type { FeatureContributions } from '../common/contributionTypes';

export const VIEW_CONTRIBUTIONS: FeatureContributions = {
  viewsContainers: [
    { id: 'agentRuntime', title: 'Agent Runtime', icon: 'media/activity.svg', location: 'activitybar' },
  ],
  views: [
    {
      id: 'agentRuntime.files',
      name: 'Files',
      container: 'agentRuntime',
      position: 2,
      icon: 'media/activity.svg',
      welcome: [
        {
          when: '!agentRuntime.signedIn',
          contents:
            'Sign in to your Agent Runtime service to upload files and delegate tasks.\n[Sign In](command:agentRuntime.signIn)\nThe service address is set in [Settings](command:agentRuntime.openSettings).',
        },
        {
          when: 'agentRuntime.signedIn && agentRuntime.filesUnreachable',
          contents:
            'The Agent Runtime service cannot be reached.\n[Retry](command:agentRuntime.retryConnection)\n[Open Settings](command:agentRuntime.openSettings)',
        },
        {
          when: 'agentRuntime.signedIn && !agentRuntime.filesUnreachable && agentRuntime.filesEmpty',
          contents:
            'No files yet. Upload workspace files to give tasks something to work on, or drop files here from the Explorer.\n[Upload a File](command:agentRuntime.uploadFiles)',
        },
      ],
    },
    {
      id: 'agentRuntime.tasks',
      name: 'Tasks',
      container: 'agentRuntime',
      position: 3,
      icon: 'media/activity.svg',
      welcome: [
        {
          when: '!agentRuntime.signedIn',
          contents:
            'Tasks you delegate to the Agent Runtime appear here once you sign in.\n[Sign In](command:agentRuntime.signIn)',
        },
        {
          when: 'agentRuntime.signedIn && agentRuntime.tasksUnreachable',
          contents:
            'The Agent Runtime service cannot be reached.\n[Retry](command:agentRuntime.retryConnection)\n[Open Settings](command:agentRuntime.openSettings)',
        },
        {
          when: 'agentRuntime.signedIn && !agentRuntime.tasksUnreachable && agentRuntime.tasksEmpty',
          contents:
            'No tasks yet. Describe some work and attach workspace files to it.\n[Create a Task](command:agentRuntime.createTask)\n[Upload and Attach Files](command:agentRuntime.uploadAndCreateTask)',
        },
      ],
    },
  ],
};
