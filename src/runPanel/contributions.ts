// The run log's commands (src/runPanel/runLogCommands.ts): export and transcript, from a run row or
// the run panel's title bar: what they contribute to package.json, declared once. Plain data, no
// vscode: `npm run contributions` writes package.json from it.
import type { FeatureContributions } from '../common/contributionTypes';

export const RUN_PANEL_CONTRIBUTIONS: FeatureContributions = {
  commands: [
    {
      id: 'agentRuntime.exportRun',
      title: 'Export Run…',
      icon: 'desktop-download',
      menus: {
        'view/item/context': [{ when: 'viewItem =~ /^run/', group: '1_run@4' }],
        'editor/title': [{ when: 'activeWebviewPanelId == agentRuntime.run', group: 'navigation@2' }],
      },
    },
    {
      id: 'agentRuntime.openRunTranscript',
      title: 'Open Run Transcript',
      icon: 'output',
      menus: {
        'view/item/context': [{ when: 'viewItem =~ /^run/', group: '1_run@5' }],
        'editor/title': [{ when: 'activeWebviewPanelId == agentRuntime.run', group: 'navigation@1' }],
      },
    },
  ],
};
