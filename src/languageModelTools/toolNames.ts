// The names of the language model tools, in the order package.json contributes them: what
// activation registers (toolsLoader.ts) without loading the tools themselves. A unit test holds
// this list, TOOL_SPECS and the manifest together.
export const TOOL_NAMES: readonly string[] = [
  'agentRuntime_createTask',
  'agentRuntime_getRun',
  'agentRuntime_listTasks',
  'agentRuntime_listArtifacts',
  'agentRuntime_readArtifact',
  'agentRuntime_cancelRun',
  'agentRuntime_resumeRun',
  'agentRuntime_forkRun',
  'agentRuntime_searchMemory',
];
