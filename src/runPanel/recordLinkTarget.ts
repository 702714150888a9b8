// What the run panel's record links open, decided on the host: the command and its
// argument for a checked `openRecord` or `openTool` message, or nothing when the event (read again
// from the log) or the approval card shown does not offer that link. A page that asks for
// another record than its row names gets nothing. Pure: no vscode.
import { Commands } from '../common/ids';
import { offersLink } from '../runEvents/recordLinks';
import type { ApprovalCardView, WireEvent } from '../runEvents/wire';
import type { WebviewMessage } from './protocol';

export interface LinkCommand {
  command: string;
  arg: Record<string, string>;
}

type OpenRecord = Extract<WebviewMessage, { type: 'openRecord' }>;
type OpenTool = Extract<WebviewMessage, { type: 'openTool' }>;

/** The command that opens the record, when `event` is the message's event and names it. */
export function recordLinkCommand(
  message: OpenRecord,
  event: Pick<WireEvent, 'event' | 'data'> | undefined,
): LinkCommand | undefined {
  if (!event || event.data?.sequence !== message.sequence) {
    return undefined;
  }
  if (!offersLink(event, { record: message.record, id: message.id })) {
    return undefined;
  }
  return message.record === 'invocation'
    ? { command: Commands.openToolInvocation, arg: { invocationId: message.id } }
    : { command: Commands.openMemory, arg: { id: message.id } };
}

/** The command that opens the card's tool, when the panel shows the card the message names. */
export function approvalToolCommand(message: OpenTool, card: ApprovalCardView | undefined): LinkCommand | undefined {
  if (!card || card.approvalId !== message.approvalId || typeof card.tool !== 'string' || card.tool === '') {
    return undefined;
  }
  return { command: Commands.openTool, arg: { name: card.tool } };
}
