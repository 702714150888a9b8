// The names the extension shares with package.json: command ids, context keys, view ids and
// setting keys. One home, so a rename is one edit here plus the manifest
// (test/unit/common/ids.test.ts checks that every command, view and setting named here is
// contributed there, and every agentRuntime.* one contributed there is named here).

export const Commands = {
  exportRun: 'agentRuntime.exportRun',
  openRunTranscript: 'agentRuntime.openRunTranscript',
  signIn: 'agentRuntime.signIn',
  signOut: 'agentRuntime.signOut',
  uploadFiles: 'agentRuntime.uploadFiles',
  uploadAndCreateTask: 'agentRuntime.uploadAndCreateTask',
  createTask: 'agentRuntime.createTask',
  newTaskWithFiles: 'agentRuntime.newTaskWithFiles',
  deleteFile: 'agentRuntime.deleteFile',
  copyId: 'agentRuntime.copyId',
  watchRun: 'agentRuntime.watchRun',
  showArtifacts: 'agentRuntime.showArtifacts',
  openArtifact: 'agentRuntime.openArtifact',
  saveArtifact: 'agentRuntime.saveArtifact',
  loadMore: 'agentRuntime.loadMore',
  refreshFiles: 'agentRuntime.refreshFiles',
  refreshTasks: 'agentRuntime.refreshTasks',
  refreshItem: 'agentRuntime.refreshItem',
  retryConnection: 'agentRuntime.retryConnection',
  showLog: 'agentRuntime.showLog',
  openSettings: 'agentRuntime.openSettings',
  reviewChanges: 'agentRuntime.reviewChanges',
  applyReviewChanges: 'agentRuntime.applyReviewChanges',
  chooseReviewChanges: 'agentRuntime.chooseReviewChanges',
  saveReviewPatch: 'agentRuntime.saveReviewPatch',
  // Steering (issue #12): each also takes a plain object for automation (see steeringCommands.ts).
  cancelRun: 'agentRuntime.cancelRun',
  resumeRun: 'agentRuntime.resumeRun',
  forkRun: 'agentRuntime.forkRun',
  approveToolCall: 'agentRuntime.approveToolCall',
  denyToolCall: 'agentRuntime.denyToolCall',
  decideApproval: 'agentRuntime.decideApproval',
  refreshApprovals: 'agentRuntime.refreshApprovals',
  // Issue #15: find and link.
  goTo: 'agentRuntime.goTo',
  filterFiles: 'agentRuntime.filterFiles',
  filterTasks: 'agentRuntime.filterTasks',
  clearFilesFilter: 'agentRuntime.clearFilesFilter',
  clearTasksFilter: 'agentRuntime.clearTasksFilter',
  copyRunLink: 'agentRuntime.copyRunLink',
  // Issue #24: memory (src/memory).
  searchMemory: 'agentRuntime.searchMemory',
  rememberSelection: 'agentRuntime.rememberSelection',
  deleteMemory: 'agentRuntime.deleteMemory',
  refreshMemory: 'agentRuntime.refreshMemory',
  filterMemory: 'agentRuntime.filterMemory',
  loadMoreMemory: 'agentRuntime.loadMoreMemory',
  openMemory: 'agentRuntime.openMemory',
  // Issue #24: tools, connectors, webhooks (src/agentAccess).
  refreshTools: 'agentRuntime.refreshTools',
  searchTools: 'agentRuntime.searchTools',
  openTool: 'agentRuntime.openTool',
  openToolInvocation: 'agentRuntime.openToolInvocation',
  loadMoreTools: 'agentRuntime.loadMoreTools',
  refreshConnectors: 'agentRuntime.refreshConnectors',
  revokeGrant: 'agentRuntime.revokeGrant',
  revokeConnector: 'agentRuntime.revokeConnector',
  loadMoreConnectors: 'agentRuntime.loadMoreConnectors',
  refreshWebhooks: 'agentRuntime.refreshWebhooks',
  createWebhook: 'agentRuntime.createWebhook',
  testWebhook: 'agentRuntime.testWebhook',
  deleteWebhook: 'agentRuntime.deleteWebhook',
  loadMoreWebhooks: 'agentRuntime.loadMoreWebhooks',
  // Issue #23: projects.
  createProjectForRepository: 'agentRuntime.createProjectForRepository',
  newTaskInProject: 'agentRuntime.newTaskInProject',
  toggleProjectTasks: 'agentRuntime.toggleProjectTasks',
  applyToNewBranch: 'agentRuntime.applyToNewBranch',
} as const;

export const ContextKeys = {
  signedIn: 'agentRuntime.signedIn',
  unreachable: 'agentRuntime.unreachable',
  filesUnreachable: 'agentRuntime.filesUnreachable',
  tasksUnreachable: 'agentRuntime.tasksUnreachable',
  filesEmpty: 'agentRuntime.filesEmpty',
  tasksEmpty: 'agentRuntime.tasksEmpty',
  reviewOpen: 'agentRuntime.reviewOpen',
  /** True while the view's filter is set (shows its "Clear Filter"). */
  filesFiltered: 'agentRuntime.filesFiltered',
  tasksFiltered: 'agentRuntime.tasksFiltered',
  /** Set once the server answered a steering call as not offered (404/405). */
  steeringUnsupported: 'agentRuntime.steeringUnsupported',
  /** Set once the server answered a project call as not offered (404/405). */
  projectsUnsupported: 'agentRuntime.projectsUnsupported',
} as const;

export const ViewIds = {
  container: 'agentRuntime',
  files: 'agentRuntime.files',
  tasks: 'agentRuntime.tasks',
  approvals: 'agentRuntime.approvals',
  memory: 'agentRuntime.memory',
  tools: 'agentRuntime.tools',
  connectors: 'agentRuntime.connectors',
  webhooks: 'agentRuntime.webhooks',
} as const;

export const Settings = {
  section: 'agentRuntime',
  baseUrl: 'agentRuntime.baseUrl',
  defaultPurpose: 'agentRuntime.defaultPurpose',
  pageSize: 'agentRuntime.pageSize',
  budgetPerRun: 'agentRuntime.budget.perRun',
  budgetCurrency: 'agentRuntime.budget.currency',
  budgetMonthly: 'agentRuntime.budget.monthly',
} as const;

/** The Settings editor filtered to this extension's settings. */
export const SETTINGS_QUERY = '@ext:agent-runtime.agent-runtime';
/** The command that shows this extension's sidebar container. */
export const SHOW_SIDEBAR_COMMAND = `workbench.view.extension.${ViewIds.container}`;
export const STATUS_BAR_ITEM_ID = 'agentRuntime.status';
/** The chat participant (package.json `contributes.chatParticipants`). */
export const CHAT_PARTICIPANT_ID = 'agentRuntime.chat';
