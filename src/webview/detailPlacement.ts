// The two details the timeline opens under a row: the raw event under the expanded row, and the
// approval card under the request's row, else under its step's row. Not in the window, the card
// is not shown (the notification and the Needs You list carry it).
import type { ApprovalCardView } from '../runEvents/wire';
import type { UiStrings } from '../runPanel/protocol';
import type { Layout } from './layout';
import type { Row } from './reducer';
import { fillRaw } from './renderRows';
import type { SteeringUi } from './steeringUi';
import type { VirtualList } from './virtualList';

export class DetailPlacement {
  private cardKey = '';
  private cardHeight = 0;

  constructor(
    private readonly layout: Layout,
    private readonly steering: SteeringUi,
    private readonly list: VirtualList<Row>,
  ) {}

  place(
    items: readonly Row[],
    expanded: Row | undefined,
    approval: ApprovalCardView | undefined,
    strings: UiStrings,
  ): void {
    const { layout, steering, list } = this;
    const rawIndex = expanded ? items.indexOf(expanded) : -1;
    if (rawIndex < 0) {
      list.setDetail(-1, undefined, 0, 'raw');
    } else {
      list.setDetail(rawIndex, layout.raw, fillRaw(layout, items[rawIndex], strings), 'raw');
    }
    let index = -1;
    if (approval) {
      index = items.findIndex((r) => r.sequence === approval.sequence);
      if (index < 0 && approval.stepId !== undefined) {
        index = items.findIndex((r) => r.kind === 'step' && r.stepId === approval.stepId);
      }
    }
    if (index < 0 || steering.card.hidden) {
      list.setDetail(-1, undefined, 0, 'card');
      return;
    }
    list.setDetail(index, steering.card, this.cardHeight || 160, 'card');
    const key = `${approval?.approvalId}\u0000${layout.timeline.clientWidth}`;
    if (key !== this.cardKey) {
      // Measured once per approval (and width): its text decides its height.
      this.cardKey = key;
      steering.card.style.height = '';
      this.cardHeight = steering.card.offsetHeight + 8;
      list.setDetail(index, steering.card, this.cardHeight, 'card');
    }
  }
}
