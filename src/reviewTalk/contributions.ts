// Talking back to the agent (src/reviewTalk): the comment commands on Review Changes' threads and
// the one that sends the drafts as the next run, declared once. Plain data, no vscode:
// `npm run contributions` writes package.json from it.
import type { FeatureContributions } from '../common/contributionTypes';

const OURS = 'commentController == agentRuntime.reviewComments';

export const REVIEW_TALK_CONTRIBUTIONS: FeatureContributions = {
  commands: [
    {
      id: 'agentRuntime.sendReviewComments',
      title: 'Send Comments to the Agent...',
      icon: 'comment-discussion',
      palette: 'agentRuntime.signedIn',
      menus: {
        'comments/commentThread/title': [{ when: `${OURS} && commentThread == draft`, group: 'inline@1' }],
        'view/item/context': [
          { when: 'viewItem =~ /^run( \\w+)* review( |$)/ || viewItem =~ /^run\\b.* comments$/', group: '1_run@4' },
        ],
        'editor/title': [{ when: 'resourceScheme == agent-runtime-review', group: 'navigation@3' }],
      },
    },
    {
      id: 'agentRuntime.askAgentToCatchUp',
      title: 'Ask the Agent to Update Its Changes...',
      icon: 'sync',
      palette: 'agentRuntime.signedIn',
      menus: {
        'view/item/context': [{ when: 'viewItem =~ /^run( \\w+)* review( |$)/', group: '1_run@5' }],
        'editor/title': [{ when: 'resourceScheme == agent-runtime-review', group: 'navigation@4' }],
      },
    },
    {
      id: 'agentRuntime.resolveReviewComment',
      title: 'Resolve',
      icon: 'check',
      palette: false,
      menus: { 'comments/commentThread/title': [{ when: `${OURS} && commentThread == judged`, group: 'inline@1' }] },
    },
    {
      id: 'agentRuntime.reopenReviewComment',
      title: 'Reopen',
      icon: 'issue-reopened',
      palette: false,
      menus: {
        'comments/commentThread/title': [{ when: `${OURS} && commentThread == judgedResolved`, group: 'inline@1' }],
      },
    },
    {
      id: 'agentRuntime.commentAgain',
      title: 'Send Again with the Next Comments',
      icon: 'reply',
      palette: false,
      menus: {
        'comments/commentThread/title': [{ when: `${OURS} && commentThread =~ /^judged/`, group: 'inline@0' }],
      },
    },
    {
      id: 'agentRuntime.addReviewComment',
      title: 'Add Comment',
      palette: false,
      menus: { 'comments/commentThread/context': [{ when: `${OURS} && commentThreadIsEmpty`, group: 'inline' }] },
    },
    {
      id: 'agentRuntime.editReviewComment',
      title: 'Edit Comment',
      icon: 'edit',
      palette: false,
      menus: { 'comments/comment/title': [{ when: `${OURS} && comment == draft`, group: 'inline@1' }] },
    },
    {
      id: 'agentRuntime.saveReviewComment',
      title: 'Save',
      palette: false,
      menus: { 'comments/comment/context': [{ when: OURS, group: 'inline@2' }] },
    },
    {
      id: 'agentRuntime.cancelReviewCommentEdit',
      title: 'Cancel',
      palette: false,
      menus: { 'comments/comment/context': [{ when: OURS, group: 'inline@1' }] },
    },
    {
      id: 'agentRuntime.deleteReviewComment',
      title: 'Delete Comment',
      icon: 'trash',
      palette: false,
      menus: {
        'comments/commentThread/title': [{ when: `${OURS} && !commentThreadIsEmpty`, group: 'inline@2' }],
        'comments/comment/title': [{ when: OURS, group: 'inline@2' }],
      },
    },
  ],
};
