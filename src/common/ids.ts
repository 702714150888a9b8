// The names the extension shares with package.json: command ids (generated from the declarations),
// context keys, view ids and setting keys. test/unit/common/ids.test.ts checks that every command,
// view and setting named here is contributed there, and every agentRuntime.* one contributed there
// is named here.

// The command ids come from the declarations beside each feature (`src/<feature>/contributions.ts`,
// listed in src/contributions.ts): `npm run contributions` writes them to commandIds.generated.ts,
// so a misspelt `Commands.x` or a `CommandId` that no feature declares does not compile.
export { Commands, type CommandId } from './commandIds.generated';

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
