// The folders of src/ and which others each may import: the arrows of docs/ARCHITECTURE.md, kept by
// ESLint (eslint.config.mjs turns each list into a no-restricted-imports rule; `npm run lint` in CI).
// A folder not listed may import nothing of src/ outside itself; src/extension.ts (the composition
// root) and test/ may import anything. Add a folder here before its first import.
export const LAYERS = {
  common: [],
  runEvents: ['common'],
  api: ['common', 'runEvents'],
  review: ['common', 'runEvents', 'api'],
  runLog: ['common', 'runEvents', 'api'],
  auth: ['common', 'api'],
  artifacts: ['common', 'api'],
  upload: ['common', 'api', 'review'],
  runs: ['common', 'runEvents', 'api'],
  service: ['common', 'api', 'auth'],
  commandSupport: ['common', 'runEvents', 'api', 'auth', 'service', 'upload', 'runs'],
  links: ['common', 'runEvents', 'api', 'commandSupport'],
  views: ['common', 'runEvents', 'api', 'runs', 'links', 'commandSupport'],
  statusBar: ['common', 'api', 'runs', 'service'],
  runPanel: ['common', 'runEvents', 'api', 'runLog', 'runs', 'links', 'commandSupport'],
  webview: ['common', 'runEvents', 'runPanel'],
  reviewUi: ['common', 'runEvents', 'api', 'review', 'upload', 'commandSupport', 'projects'],
  steering: ['common', 'runEvents', 'api', 'runs', 'runPanel', 'commandSupport'],
  navigation: ['common', 'runEvents', 'api', 'links', 'views', 'commandSupport'],
  // VS Code's own agents (tools for agent mode, the @agent-runtime participant, the API for other extensions).
  languageModelTools: ['common', 'runEvents', 'api', 'runs', 'upload'],
  chat: ['common', 'runEvents', 'api', 'runs'],
  extensionApi: ['common', 'runEvents', 'api', 'runs'],
  // What the agent knows and may use.
  memory: ['common', 'api', 'commandSupport', 'views'],
  agentAccess: ['common', 'api', 'commandSupport', 'views'],
  // Talking back to the agent: review comments on a run's changes, sent as a follow-up.
  reviewComments: ['common', 'api'],
  reviewTalk: ['common', 'runEvents', 'api', 'reviewComments', 'runs', 'commandSupport', 'upload', 'reviewUi'],
  // Projects bound to git repositories.
  projects: ['common', 'runEvents', 'api', 'review', 'commandSupport'],
  commands: [
    'common',
    'runEvents',
    'api',
    'auth',
    'artifacts',
    'service',
    'upload',
    'runs',
    'reviewUi',
    'views',
    'commandSupport',
  ],
};

/** Folders that never import vscode: tested in plain Node (the webview runs in a browser). */
export const PURE_FOLDERS = ['common', 'runEvents', 'api', 'review', 'reviewComments', 'runLog', 'webview'];

/** The modules of src/common that wrap vscode (the rest of common is pure). */
export const VSCODE_IN_COMMON = ['disposableStore', 'notify', 'readOnlyFileSystem', 'setContext', 'vscodeTranslate'];

/** The only files of src/runPanel the webview may import: the messages and their string keys. */
export const WEBVIEW_RUN_PANEL_FILES = ['protocol', 'uiStrings'];
