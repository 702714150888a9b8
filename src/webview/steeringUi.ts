// The run panel's steering controls: the run actions of src/runEvents/runActions.ts (Cancel, and
// "Cancelling…" until the end; Resume, Review Changes; "Fork from here…" on an expanded event),
// each shown when the table offers it, the card of the tool call the run waits on (tool, reason, time, the
// full arguments as text) with Approve / Deny and the tool's description, the run's cost, "Send N Comments to the Agent..." while the run has review comments not sent, and a polite live region that announces a cancel. The card is placed in the
// timeline under the row that asked (app.ts); the announcer says approval requests. Every server string is set
// with textContent; the host confirms and asks for notes and instructions.
import { untranslated } from '../common/translate';
import { RUN_ACTIONS, type RunAction, runActionLabelKey } from '../runEvents/runActions';
import type { RunInfo, UiStrings } from '../runPanel/protocol';
import {
  el,
  elWithId,
  hiddenTextButton,
  iconButton,
  setBlockText,
  setButtonLabel,
  setDisabled,
  setHidden,
  setText,
} from './dom';
import { fill } from './format';
import type { Layout } from './layout';

export interface SteeringUi {
  /** One button per run action (src/runEvents/runActions.ts), in table order. */
  actions: { action: RunAction; button: HTMLButtonElement }[];
  /** "Send N Comments to the Agent...": shown while the run has review comments not sent (its count in data-count). */
  sendComments: HTMLButtonElement;
  cost: HTMLElement;
  card: HTMLElement;
  cardTitle: HTMLElement;
  cardWhy: HTMLElement;
  cardMeta: HTMLElement;
  cardArgsLabel: HTMLElement;
  cardArgs: HTMLElement;
  approve: HTMLButtonElement;
  deny: HTMLButtonElement;
  /** Opens the description of the tool the card asks for (the host looks it up by name). */
  openTool: HTMLButtonElement;
  live: HTMLElement;
  /** What was last announced, so a redraw does not announce it again. */
  announced: string;
}

export function createSteeringUi(layout: Layout, strings: UiStrings): SteeringUi {
  const actions = RUN_ACTIONS.map((action) => ({
    action,
    button:
      action.panel === 'header'
        ? hiddenTextButton(action.domId, action.icon, label(strings, action))
        : iconButton(action.domId, action.icon, label(strings, action), true),
  }));
  const cost = elWithId('span', 'run-cost', 'fact-value run-cost');
  cost.hidden = true;
  const sendComments = hiddenTextButton('send-comments', 'comment-discussion', strings.sendComment);
  sendComments.dataset.count = '0';
  layout.status.after(cost, ...actions.filter((a) => a.action.panel === 'header').map((a) => a.button), sendComments);

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
  const decisions = el('div', 'approval-actions');
  const approve = iconButton('approve-tool-call', 'check', strings.approve, true);
  const deny = iconButton('deny-tool-call', 'close', strings.deny, true);
  const openTool = iconButton('open-approval-tool', 'tools', strings.openToolDescription, true);
  decisions.append(approve, deny, openTool);
  card.append(cardTitle, cardWhy, cardMeta, cardArgsLabel, cardArgs, decisions);
  card.setAttribute('aria-labelledby', 'approval-title');

  layout.rawOpen.after(...actions.filter((a) => a.action.panel === 'event').map((a) => a.button));

  const live = elWithId('div', 'steering-announcer', 'visually-hidden');
  live.setAttribute('aria-live', 'polite');
  live.setAttribute('role', 'status');
  layout.root.append(live);
  return {
    actions,
    sendComments,
    cost,
    card,
    cardTitle,
    cardWhy,
    cardMeta,
    cardArgsLabel,
    cardArgs,
    approve,
    deny,
    openTool,
    live,
    announced: '',
  };
}

/** The action's label in the panel's strings (English when an older host did not send it). */
function label(strings: UiStrings, action: RunAction): string {
  return strings[runActionLabelKey(action)] ?? action.label(untranslated);
}

function localTime(iso: string | undefined): string {
  if (!iso) {
    return '?';
  }
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : at.toLocaleString();
}

/** Draws the controls from the header's info; `ended`: a terminal event arrived. */
export function updateSteering(
  ui: SteeringUi,
  info: RunInfo,
  strings: UiStrings,
  ended: boolean,
  status: string | undefined,
): void {
  // What the table offers for this run; a server without the steering endpoints gets none of those.
  const run = { status, ended };
  const service = { steering: info.steering !== false };
  for (const { action, button } of ui.actions) {
    const cancelling = action.id === 'cancel' && info.cancelling === true;
    setButtonLabel(button, cancelling ? strings.cancelling : label(strings, action));
    setHidden(button, !action.offered(run, service));
    setDisabled(button, cancelling);
  }
  const count = info.draftComments;
  const drafts = typeof count === 'number' && Number.isSafeInteger(count) && count > 0 ? count : 0;
  setHidden(ui.sendComments, drafts <= 0);
  setButtonLabel(ui.sendComments, drafts === 1 ? strings.sendComment : fill(strings.sendComments, drafts));
  if (ui.sendComments.dataset.count !== String(drafts)) {
    ui.sendComments.dataset.count = String(drafts);
  }
  // A capped run's cost is in the spend meter beside it (spendMeterUi.ts).
  setHidden(ui.cost, !info.cost || (info.budget !== undefined && info.budget !== null));
  setText(ui.cost, info.cost ? `${strings.cost}: ${info.cost}` : '');

  const approval = info.approval ?? undefined;
  setHidden(ui.card, approval === undefined);
  if (approval) {
    setText(ui.cardTitle, fill(strings.approvalWaits, approval.tool));
    setText(ui.cardWhy, approval.reason ? fill(strings.approvalWhy, approval.reason) : '');
    setText(ui.cardMeta, fill(strings.approvalMeta, approval.sequence, localTime(approval.expiresAt)));
    setText(ui.cardArgsLabel, approval.argumentsCut ? strings.approvalArgumentsCut : strings.approvalArguments);
    setBlockText(ui.cardArgs, approval.argumentsJson);
    setButtonLabel(ui.approve, strings.approve);
    setButtonLabel(ui.deny, strings.deny);
    setButtonLabel(ui.openTool, strings.openToolDescription);
    // An approval that names no tool has no description to open.
    setHidden(ui.openTool, !approval.tool);
    ui.card.dataset.approvalId = approval.approvalId;
  } else {
    delete ui.card.dataset.approvalId;
  }

  const announcement = info.cancelling ? strings.cancelling : '';
  if (announcement !== ui.announced) {
    ui.announced = announcement;
    if (announcement) {
      setText(ui.live, announcement);
    }
  }
}
