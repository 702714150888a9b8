// The names the UI shows, in one place, so a renamed title is fixed here once.
export const UI = {
  container: 'Agent Runtime',
  filesView: 'Files',
  tasksView: 'Tasks',
  outputChannel: 'Agent Runtime',
  commands: {
    signIn: 'Agent Runtime: Sign In',
    signOut: 'Agent Runtime: Sign Out',
    showLog: 'Agent Runtime: Show Log',
    refreshFiles: 'Agent Runtime: Refresh Files',
    refreshTasks: 'Agent Runtime: Refresh Tasks',
    createTask: 'Agent Runtime: Create Task...',
    uploadAndCreateTask: 'Agent Runtime: Upload and Attach to New Task...',
    newTaskInProject: 'Agent Runtime: New Task in Project...',
    goTo: 'Agent Runtime: Go to…',
    applyReviewChanges: 'Agent Runtime: Apply Changes',
    markFileReviewed: 'Agent Runtime: Mark File as Reviewed',
    chooseReviewChanges: 'Agent Runtime: Apply Chosen Changes...',
    saveAll: ['File: Save All Files', 'File: Save All'],
  },
  /** Context-menu items (menus show the title without the category). */
  menu: {
    uploadAndAttach: 'Upload and Attach to New Task...',
    uploadFile: 'Upload to Agent Runtime',
    watchRun: 'Watch Run',
    showArtifacts: 'Show Artifacts',
    openArtifact: 'Open Artifact',
    saveArtifact: 'Save Artifact As...',
    deleteFile: 'Delete File',
    reviewChanges: 'Review Changes',
  },
  /** Review Changes: the multi-file diff editor's title and the notification's buttons. */
  /** The multi-diff editor's tab names the task's objective (not the run id). */
  reviewEditorTitle: (objective: string) =>
    new RegExp(`Changes for “${objective.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}”`),
  review: {
    applyAll: 'Apply All',
    choose: 'Choose Changes...',
    savePatch: 'Save as Patch...',
    showConflicts: 'Show Conflicts',
    changesSince: (revision: number) => `Changes Since Revision ${revision}`,
    /** Changes Since Revision N's multi-diff editor: its tab names the revision and the objective. */
    sinceEditorTitle: (revision: number, objective: string) =>
      new RegExp(`Changes since revision ${revision} for “${objective.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}”`),
  },
  /** The sign-in input box's title contains this. */
  apiKeyPrompt: /API key/i,
  /** The objective prompt of the new-task flow (title "New Agent Runtime Task"). */
  objectivePrompt: /New Agent Runtime Task|objective|What should the agent do/i,
  /** Talking back: VS Code's own comment command, the controller's button, the send. */
  comments: {
    add: 'Add Comment',
    send: 'Agent Runtime: Send Comments to the Agent...',
    overallPrompt: /overall instruction/,
  },
  /** The spending cap asked before every run a person starts (empty: no cap). */
  capPrompt: /Spending cap for this run/i,
  /** The run panel (webview) marks each timeline row (a list item) with data-sequence. */
  /** An event row of the timeline (the outline's step items carry data-sequence too). */
  runPanelRow: '#timeline [role="listitem"][data-sequence]',
  reconnecting: /reconnecting/i,
  /** A task's only run reads as "Run 1" (runs show as people read them, never as raw ids). */
  firstRunRow: /\bRun 1(?!\d)/,
  /** What the agent knows and may use: the views below Tasks, in this order. */
  agentViews: ['Memory', 'Tools', 'Connectors', 'Webhooks'],
  /** VS Code's Chat view and the @agent-runtime participant (the Chat view from VS Code 1.139 on). */
  chat: {
    participant: '@agent-runtime',
    /** The name a response of the participant carries (its fullName). */
    participantName: 'Agent Runtime',
    commands: ['/review', '/runs', '/status', '/task'],
    /** The participant's follow-up after an answer without a run (src/chat/chatHandler.ts). */
    recentTasksFollowup: 'Show recent tasks',
    /** The model of the UI tests' stub language model provider (test/e2e/fixtures/stubModel). */
    stubModel: 'Stub Model',
    /** The participant's /status answer when the service has no run yet (src/chat/chatHandler.ts). */
    noRunYet: 'No run to show yet: name one (/status run_...) or start a task with /task.',
    /** The start of the participant's /task answer once the task is created (src/chat/chatHandler.ts). */
    createdTask: /Created task \S+\./,
  },
  /** Memory, tools and webhooks at work (scenario agent-access). */
  access: {
    searchMemory: 'Agent Runtime: Search Memory...',
    createWebhook: 'Agent Runtime: Create Webhook...',
    closeAllEditors: 'View: Close All Editors',
    conflictNotice: /Someone changed this memory meanwhile/,
    overwrite: 'Overwrite',
    webhookUrlPrompt: /https URL the service calls/,
    webhookEventsTitle: 'Create Webhook: events',
    secretDialog: /signing secret/,
    copySecret: 'Copy Secret',
    webhooksView: 'Webhooks',
    sendTestDelivery: 'Send Test Delivery',
    testDelivery: /Test delivery/,
  },
  /** Steering. */
  steering: {
    needsYouView: 'Needs You',
    cancelConfirm: 'Cancel Run',
    approve: 'Approve',
    approveWithNote: 'Approve with Note...',
    /** The dialog Approve opens: the whole call before the decision. */
    approveDialog: /Approve this call of/,
    deny: 'Deny',
    waitsNotification: /waits for your approval/i,
    notePrompt: /optional note|Approve the tool call|Deny the tool call/i,
    forkPrompt: /follow-up instructions|What should the new run do/i,
  },
  /** Spend under control (scenario spend-cap). */
  spend: {
    /** The notification after Create Task; it offers Watch Run. */
    created: /Task ".*" created\./,
    /** A run-at-cap row of Needs You: its label (the objective) and description run together. */
    atCapRow: (objective: string) =>
      new RegExp(`${objective.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*spent .* of its cap of`),
    atCapNotification: /reached its spending cap of .* and waits for you/,
    /** The dialog Raise the Cap... and Stop the Run open: what the run spent, before the choice. */
    atCapDialog: /reached its spending cap and waits for you/,
    raiseCap: 'Raise the Cap...',
    raisePrompt: /Raise the cap of this run/,
    stopRun: 'Stop the Run',
  },
} as const;

/** The names a run needs in German (package.nls.de.json, l10n/bundle.l10n.de.json). */
export const UI_DE = {
  tasksView: 'Aufgaben',
  refreshTasks: 'Agent Runtime: Aufgaben aktualisieren',
  watchRun: 'Lauf verfolgen',
  /** The panel's summary heading, only there when the panel got the German strings. */
  summary: 'Zusammenfassung',
} as const;
