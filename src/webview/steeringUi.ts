// The run panel's steering controls: Cancel (and "Cancelling…" until the end), Resume after a
// failed or cancelled end, the card of the tool call the run waits on (tool, reason, time, the
// full arguments as text) with Approve / Deny, "Fork from here…" on an expanded event, the
// run's cost, and a polite live region that announces a cancel. The card is placed in the
// timeline under the row that asked (main.ts); the announcer says approval requests. Every server string is set
// with textContent; the host confirms and asks for notes and instructions.
import type { RunInfo, UiStrings } from '../runPanel/protocol';
import { el, elWithId, hiddenTextButton, iconButton, setButtonLabel, setText } from './dom';
import { fill } from './format';
import type { Layout } from './layout';

export interface SteeringUi {
  cancel: HTMLButtonElement;
  resume: HTMLButtonElement;
  review: HTMLButtonElement;
  fork: HTMLButtonElement;
  cost: HTMLElement;
  card: HTMLElement;
  cardTitle: HTMLElement;
  cardWhy: HTMLElement;
  cardMeta: HTMLElement;
  cardArgsLabel: HTMLElement;
  cardArgs: HTMLElement;
  approve: HTMLButtonElement;
  deny: HTMLButtonElement;
  live: HTMLElement;
  /** What was last announced, so a redraw does not announce it again. */
  announced: string;
}

export function createSteeringUi(layout: Layout, strings: UiStrings): SteeringUi {
  const cancel = hiddenTextButton('cancel-run', 'debug-stop', strings.cancelRun);
  const resume = hiddenTextButton('resume-run', 'debug-continue', strings.resumeRun);
  const review = hiddenTextButton('review-changes', 'diff-multiple', strings.reviewChanges);
  const cost = elWithId('span', 'run-cost', 'fact-value run-cost');
  cost.hidden = true;
  layout.status.after(cost, cancel, resume, review);

  const card = elWithId('section', 'approval-card', 'approval-card timeline-card');
  // Placed inside the timeline's role=list, next to the row that asked.
  card.setAttribute('role', 'listitem');
  card.hidden = true;
  card.setAttribute('role', 'region');
  const cardTitle = elWithId('h2', 'approval-title', 'approval-title');
  const cardWhy = el('div', 'approval-why');
  const cardMeta = el('div', 'approval-meta muted');
  const cardArgsLabel = el('div', 'approval-args-label');
  const cardArgs = elWithId('pre', 'approval-args', 'approval-args');
  const actions = el('div', 'approval-actions');
  const approve = iconButton('approve-tool-call', 'check', strings.approve, true);
  const deny = iconButton('deny-tool-call', 'close', strings.deny, true);
  actions.append(approve, deny);
  card.append(cardTitle, cardWhy, cardMeta, cardArgsLabel, cardArgs, actions);
  card.setAttribute('aria-labelledby', 'approval-title');

  const fork = iconButton('fork-from-here', 'repo-forked', strings.forkFromHere, true);
  layout.rawOpen.after(fork);

  const live = elWithId('div', 'steering-announcer', 'visually-hidden');
  live.setAttribute('aria-live', 'polite');
  live.setAttribute('role', 'status');
  layout.root.append(live);
  return { cancel, resume, review, fork, cost, card, cardTitle, cardWhy, cardMeta, cardArgsLabel, cardArgs, approve, deny, live, announced: '' };
}

function localTime(iso: string | undefined): string {
  if (!iso) return '?';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : at.toLocaleString();
}

/** Draws the controls from the header's info; `ended`: a terminal event arrived. */
export function updateSteering(ui: SteeringUi, info: RunInfo, strings: UiStrings, ended: boolean, status: string | undefined): void {
  // A server without the steering endpoints: the controls are not offered at all.
  const steering = info.steering !== false;
  setButtonLabel(ui.cancel, info.cancelling ? strings.cancelling : strings.cancelRun);
  ui.cancel.hidden = ended || !steering;
  ui.cancel.disabled = info.cancelling === true;
  setButtonLabel(ui.resume, strings.resumeRun);
  ui.resume.hidden = !steering || !(ended && (status === 'failed' || status === 'cancelled'));
  ui.fork.hidden = !steering;
  // Reviewing takes the run's outputs back into the workspace: offered once the run has ended.
  setButtonLabel(ui.review, strings.reviewChanges);
  ui.review.hidden = !ended;
  setButtonLabel(ui.fork, strings.forkFromHere);
  ui.cost.hidden = !info.cost;
  setText(ui.cost, info.cost ? `${strings.cost}: ${info.cost}` : '');

  const approval = info.approval ?? undefined;
  ui.card.hidden = approval === undefined;
  if (approval) {
    setText(ui.cardTitle, fill(strings.approvalWaits, approval.tool));
    setText(ui.cardWhy, approval.reason ? fill(strings.approvalWhy, approval.reason) : '');
    setText(ui.cardMeta, fill(strings.approvalMeta, approval.sequence, localTime(approval.expiresAt)));
    setText(ui.cardArgsLabel, approval.argumentsCut ? strings.approvalArgumentsCut : strings.approvalArguments);
    setText(ui.cardArgs, approval.argumentsJson);
    setButtonLabel(ui.approve, strings.approve);
    setButtonLabel(ui.deny, strings.deny);
    ui.card.dataset.approvalId = approval.approvalId;
  } else {
    delete ui.card.dataset.approvalId;
  }

  const announcement = info.cancelling ? strings.cancelling : '';
  if (announcement !== ui.announced) {
    ui.announced = announcement;
    if (announcement) setText(ui.live, announcement);
  }
}
