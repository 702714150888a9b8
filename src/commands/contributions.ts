// The commands of src/commands/ (sign in, upload, create task, the Files and Tasks rows, artifacts,
// watching a run, the view filters) and src/extension.ts's log and settings commands: what they
// contribute to package.json, declared once. Plain data, no vscode: `npm run contributions` writes
// package.json from it.
import type { FeatureContributions } from '../common/contributionTypes';

export const COMMAND_CONTRIBUTIONS: FeatureContributions = {
  commands: [
    {
      id: 'agentRuntime.signIn',
      title: 'Sign In',
      icon: 'sign-in',
    },
    {
      id: 'agentRuntime.signOut',
      title: 'Sign Out',
      icon: 'sign-out',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.files && agentRuntime.signedIn', group: '9_account' }],
      },
    },
    {
      id: 'agentRuntime.uploadFiles',
      title: 'Upload to Agent Runtime',
      icon: 'cloud-upload',
      menus: {
        'explorer/context': [{ group: '7_agentRuntime@1' }],
        'editor/title/context': [
          { when: 'isFileSystemResource && resourceScheme != agent-runtime', group: '7_agentRuntime@1' },
        ],
        'view/title': [{ when: 'view == agentRuntime.files && agentRuntime.signedIn', group: 'navigation@1' }],
      },
    },
    {
      id: 'agentRuntime.uploadAndCreateTask',
      title: 'Upload and Attach to New Task...',
      icon: 'rocket',
      menus: {
        'explorer/context': [{ group: '7_agentRuntime@2' }],
        'editor/title/context': [
          { when: 'isFileSystemResource && resourceScheme != agent-runtime', group: '7_agentRuntime@2' },
        ],
        'editor/context': [
          { when: 'isFileSystemResource && resourceScheme != agent-runtime', group: '7_agentRuntime@1' },
        ],
      },
    },
    {
      id: 'agentRuntime.createTask',
      title: 'Create Task...',
      icon: 'add',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.tasks && agentRuntime.signedIn', group: 'navigation@1' }],
      },
    },
    {
      id: 'agentRuntime.newTaskWithFiles',
      title: 'New Task with This File...',
      icon: 'rocket',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/item/context': [
          { when: 'viewItem == file', group: 'inline@1' },
          { when: 'viewItem == file', group: '1_task@1' },
        ],
      },
    },
    {
      id: 'agentRuntime.refreshFiles',
      title: 'Refresh Files',
      icon: 'refresh',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.files', group: 'navigation@2' }],
      },
    },
    {
      id: 'agentRuntime.refreshTasks',
      title: 'Refresh Tasks',
      icon: 'refresh',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.tasks', group: 'navigation@2' }],
      },
    },
    {
      id: 'agentRuntime.refreshItem',
      title: 'Refresh',
      icon: 'refresh',
      palette: false,
      menus: {
        'view/item/context': [{ when: 'viewItem =~ /^(file|task|run)/', group: '2_refresh@1' }],
      },
    },
    {
      id: 'agentRuntime.retryConnection',
      title: 'Retry Connection',
      icon: 'debug-restart',
    },
    {
      id: 'agentRuntime.deleteFile',
      title: 'Delete File',
      icon: 'trash',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/item/context': [{ when: 'viewItem == file', group: '9_delete@1' }],
      },
    },
    {
      id: 'agentRuntime.copyId',
      title: 'Copy ID',
      icon: 'copy',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/item/context': [{ when: 'viewItem =~ /^(file|task|run|artifact)/', group: '8_copy@1' }],
      },
    },
    {
      id: 'agentRuntime.watchRun',
      title: 'Watch Run',
      icon: 'eye',
      menus: {
        'view/item/context': [
          { when: 'viewItem == task || viewItem =~ /^run( \\w+)* active( |$)/', group: 'inline@1' },
          { when: 'viewItem =~ /^(task|run)/', group: '1_run@1' },
        ],
      },
    },
    {
      id: 'agentRuntime.showArtifacts',
      title: 'Show Artifacts',
      icon: 'package',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/item/context': [{ when: 'viewItem =~ /^run/', group: '1_run@2' }],
      },
    },
    {
      id: 'agentRuntime.openArtifact',
      title: 'Open Artifact',
      icon: 'go-to-file',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/item/context': [
          { when: 'viewItem == artifact', group: 'inline@1' },
          { when: 'viewItem == artifact', group: '1_artifact@1' },
        ],
      },
    },
    {
      id: 'agentRuntime.saveArtifact',
      title: 'Save Artifact As...',
      icon: 'save',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/item/context': [
          { when: 'viewItem == artifact', group: 'inline@2' },
          { when: 'viewItem == artifact', group: '1_artifact@2' },
        ],
      },
    },
    {
      id: 'agentRuntime.loadMore',
      title: 'Load More',
      icon: 'more',
      palette: false,
    },
    {
      id: 'agentRuntime.showLog',
      title: 'Show Log',
      icon: 'output',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.files', group: '9_account' }],
      },
    },
    {
      id: 'agentRuntime.openSettings',
      title: 'Open Settings',
      icon: 'gear',
    },
    {
      id: 'agentRuntime.filterTasks',
      title: 'Filter Tasks…',
      icon: 'filter',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.tasks && agentRuntime.signedIn', group: 'navigation@3' }],
      },
    },
    {
      id: 'agentRuntime.filterFiles',
      title: 'Filter Files…',
      icon: 'filter',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.files && agentRuntime.signedIn', group: 'navigation@3' }],
      },
    },
    {
      id: 'agentRuntime.clearTasksFilter',
      title: 'Clear Tasks Filter',
      icon: 'clear-all',
      palette: 'agentRuntime.tasksFiltered',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.tasks && agentRuntime.tasksFiltered', group: 'navigation@4' }],
      },
    },
    {
      id: 'agentRuntime.clearFilesFilter',
      title: 'Clear Files Filter',
      icon: 'clear-all',
      palette: 'agentRuntime.filesFiltered',
      menus: {
        'view/title': [{ when: 'view == agentRuntime.files && agentRuntime.filesFiltered', group: 'navigation@4' }],
      },
    },
  ],
};
