// The run panel header's spend meter: a capped run's cost against its cap as a bar with its text
// ("Spending cap: 0.03 of 0.05 USD, 60 %"), a role=meter element for screen readers, and the
// thresholds (50, 80, 100 per cent) announced once per crossing. The amounts are checked and
// compared only here, once per draw (src/runEvents/spendMeter.ts): the reducer only keeps the
// newest of them, so a flood of `usage.updated` costs an assignment per event and a draw per frame.
// An amount that is not usable is shown as received with its note and fills no bar.
import { type SpendCrossings, type SpendLevel, spendMeter, type SpendSeen } from '../runEvents/spendMeter';
import type { UiStrings } from '../runPanel/protocol';
import { codicon, el, elWithId, setAttr, setHidden, setIcon, setText } from './dom';

export interface SpendMeterUi {
  root: HTMLElement;
  icon: HTMLElement;
  label: HTMLElement;
  fill: HTMLElement;
  text: HTMLElement;
}

export function createSpendMeter(): SpendMeterUi {
  const root = elWithId('span', 'spend-meter', 'spend-meter');
  root.hidden = true;
  root.setAttribute('role', 'meter');
  root.setAttribute('aria-valuemin', '0');
  root.setAttribute('aria-valuemax', '100');
  const icon = codicon('credit-card', 'muted');
  const label = el('span', 'spend-meter-label');
  const bar = el('span', 'spend-bar');
  bar.setAttribute('aria-hidden', 'true');
  const fill = el('span', 'spend-fill');
  bar.append(fill);
  const text = el('span', 'spend-text');
  root.append(icon, label, bar, text);
  return { root, icon, label, fill, text };
}

/** The icon and tone per level: the text says the same, so colour is never the only sign. */
function look(level: SpendLevel | undefined, noted: boolean): { icon: string; tone: string } {
  if (noted) {
    return { icon: 'warning', tone: 'warn' };
  }
  if (level === 100) {
    return { icon: 'error', tone: 'error' };
  }
  if (level === 80) {
    return { icon: 'warning', tone: 'warn' };
  }
  return { icon: 'credit-card', tone: 'muted' };
}

/**
 * Draws the meter from the newest amounts; `announce` is told of a threshold just crossed.
 * Returns whether the meter shows (a run without a cap has none).
 */
export function updateSpendMeter(
  ui: SpendMeterUi,
  spend: SpendSeen,
  strings: UiStrings,
  crossings: SpendCrossings,
  announce: (level: SpendLevel, text: string) => void,
): boolean {
  const meter = spendMeter(spend, strings);
  setHidden(ui.root, meter === undefined);
  if (!meter) {
    return false;
  }
  const { icon, tone } = look(meter.level, meter.noted);
  setIcon(ui.icon, icon, tone);
  setText(ui.label, `${strings.spendCap}:`);
  setText(ui.text, meter.text);
  const width = `${meter.fill ?? 0}%`;
  if (ui.fill.style.width !== width) {
    ui.fill.style.width = width;
  }
  setAttr(ui.root, 'class', `spend-meter level-${meter.noted ? 'noted' : (meter.level ?? 0)}`);
  setAttr(ui.root, 'aria-label', strings.spendCap);
  setAttr(ui.root, 'aria-valuenow', String(meter.fill ?? 0));
  setAttr(ui.root, 'aria-valuetext', meter.text);
  const crossed = crossings.next(meter.level);
  if (crossed !== undefined && crossed > 0) {
    announce(crossed, meter.text);
  }
  return true;
}
