// The run panel header's spend meter in headless Chromium: cost against cap as a bar with its text
// and a role=meter, each threshold (50, 80, 100 per cent) announced once per crossing, a bad amount
// shown as received with its note and no bar, and a flood drawn as its newest value.
import * as assert from 'node:assert';
import type { WireEvent } from '../../../src/runEvents/wire';
import { DEFAULT_UI_STRINGS, type HostMessage } from '../../../src/runPanel/protocol';
import { emptySnapshot, ev } from './fixtures';
import { launchBrowser, openPanelPage, type PanelPage } from './pageHarness';

const RUN = 'run_spend';
const usd = (amount: string | number) => ({ amount, currency: 'USD' });
/** Two animation frames: whatever the page scheduled has been drawn. */
const FRAMES = `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`;
const SAID = `
  window.__said = { polite: [], assertive: [] };
  addEventListener('DOMContentLoaded', () => {
    for (const [id, key] of [['announcer-polite', 'polite'], ['announcer-assertive', 'assertive']]) {
      const node = document.getElementById(id);
      new MutationObserver(() => window.__said[key].push(node.textContent)).observe(node, { childList: true, characterData: true, subtree: true });
    }
  });`;

function reset(info: Partial<Extract<HostMessage, { type: 'reset' }>['info']> = {}): HostMessage {
  return {
    type: 'reset',
    snapshot: emptySnapshot(RUN),
    info: { runId: RUN, status: 'running', ...info },
    connection: { state: 'live' },
    artifacts: { state: 'none' },
    strings: { ...DEFAULT_UI_STRINGS },
  };
}

describe('run panel page: spend meter (headless Chromium)', function () {
  this.timeout(60_000);
  let p: PanelPage;
  let chromium: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  let sequence = 0;

  before(async () => {
    chromium = await launchBrowser();
  });
  after(async () => {
    await chromium?.close();
  });
  beforeEach(async () => {
    sequence = 0;
    p = await openPanelPage({ browser: chromium?.browser, initScript: SAID });
  });
  afterEach(async () => {
    await p?.close();
  });

  /** Sends spend events and waits until they are drawn. */
  async function spend(...events: Array<[string, Record<string, unknown>]>): Promise<void> {
    const wire: WireEvent[] = events.map(([name, data]) => ev(name, ++sequence, data));
    await p.send({ type: 'events', events: wire });
    await p.js(FRAMES);
  }

  const meter = () =>
    p.js<{ hidden: boolean; text: string; role: string; now: string; valueText: string; width: string; level: string }>(
      `(() => { const m = document.getElementById('spend-meter'); return {
        hidden: m.hidden, text: m.textContent, role: m.getAttribute('role'), now: m.getAttribute('aria-valuenow'),
        valueText: m.getAttribute('aria-valuetext'), width: m.querySelector('.spend-fill').style.width,
        level: m.className }; })()`,
    );

  it('shows cost against cap as a bar with its text and a meter, and says each threshold once per crossing', async () => {
    // The page's clock is the test's: the reader's interval (2 s) passes when the test says so.
    await p.page.clock.install();
    const frame = () => p.page.clock.runFor(50);
    const spendNow = async (...events: Array<[string, Record<string, unknown>]>) => {
      await p.send({ type: 'events', events: events.map(([name, data]) => ev(name, ++sequence, data)) });
      await frame();
    };
    const said = () => p.js<{ polite: string[]; assertive: string[] }>('window.__said');
    await p.send(reset({ budget: usd('0.05'), spent: null }));
    await frame();
    let m = await meter();
    assert.strictEqual(m.hidden, false);
    assert.strictEqual(m.role, 'meter');
    assert.strictEqual(m.text, 'Spending cap:0.00 of 0.05 USD, 0 %');
    assert.strictEqual(m.width, '0%');

    await spendNow(['usage.updated', { cost: usd('0.01') }]);
    await spendNow(['usage.updated', { cost: usd('0.03') }]); // 60 %: 50 crossed
    m = await meter();
    assert.strictEqual(m.valueText, '0.03 of 0.05 USD, 60 %');
    assert.strictEqual(m.now, '60');
    assert.strictEqual(m.width, '60%');
    assert.match(m.level, /level-50/);
    // More within the 50s, each drawn: nothing more is said, however long one waits.
    for (const cost of ['0.031', '0.035', '0.039']) {
      await spendNow(['usage.updated', { cost: usd(cost) }]);
    }
    await p.page.clock.runFor(5000);
    assert.deepStrictEqual(await said(), {
      polite: ['50 % of the spending cap reached: 0.03 of 0.05 USD, 60 %'],
      assertive: [],
    });
    // Past 80 and to the cap in one draw: the highest is said, assertively, once.
    await spendNow(['budget.reached', { cost: usd('0.05'), budget: usd('0.05') }]);
    assert.match((await meter()).level, /level-100/);
    // Another run's budget event changes nothing here.
    await spendNow(['budget.raised', { run_id: 'run_someone_else', budget: usd('-1') }]);
    assert.strictEqual((await meter()).valueText, '0.05 of 0.05 USD, 100 %');
    await p.page.clock.runFor(5000);
    // The cap raised: 50 %, nothing said; crossing 80 of the new cap is said; then its cap.
    await spendNow(['budget.raised', { budget: usd('0.10') }]);
    assert.strictEqual((await meter()).valueText, '0.05 of 0.10 USD, 50 %');
    await spendNow(['usage.updated', { cost: usd('0.08') }]);
    await spendNow(['usage.updated', { cost: usd('0.09') }]);
    await p.page.clock.runFor(5000);
    await spendNow(['usage.updated', { cost: usd('0.10') }]);
    await p.page.clock.runFor(5000);
    assert.deepStrictEqual(await said(), {
      polite: [
        '50 % of the spending cap reached: 0.03 of 0.05 USD, 60 %',
        '80 % of the spending cap reached: 0.08 of 0.10 USD, 80 %',
      ],
      assertive: [
        '100 % of the spending cap reached: 0.05 of 0.05 USD, 100 %',
        '100 % of the spending cap reached: 0.10 of 0.10 USD, 100 %',
      ],
    });
  });

  it('a panel brought up to date by a reset says nothing of the thresholds the run passed meanwhile', async () => {
    await p.page.clock.install();
    await p.send(reset({ budget: usd('0.05'), spent: usd('0.01') }));
    await p.page.clock.runFor(50);
    // Hidden meanwhile; shown again at 90 %.
    await p.send(reset({ budget: usd('0.05'), spent: usd('0.045') }));
    await p.page.clock.runFor(5000);
    assert.strictEqual((await meter()).valueText, '0.045 of 0.05 USD, 90 %');
    assert.deepStrictEqual(await p.js('window.__said'), { polite: [], assertive: [] });
    await p.send({ type: 'events', events: [ev('usage.updated', 1, { cost: usd('0.05') })] });
    await p.page.clock.runFor(5000);
    assert.deepStrictEqual(await p.js('window.__said'), {
      polite: [],
      assertive: ['100 % of the spending cap reached: 0.05 of 0.05 USD, 100 %'],
    });
  });

  it('shows a bad amount as received with its note, without a bar, and says nothing for it', async () => {
    await p.send(reset({ budget: usd('0.05'), spent: usd('0.01') }));
    await p.js(FRAMES);
    await spend(['usage.updated', { cost: usd('-5.00') }]);
    let m = await meter();
    assert.strictEqual(m.valueText, '-5.00 USD (a negative amount, not counted) against a cap of 0.05 USD');
    assert.match(m.level, /level-noted/);
    assert.strictEqual(m.width, '0%');
    await spend(['usage.updated', { cost: usd('9'.repeat(5000)) }]);
    m = await meter();
    assert.match(m.valueText, /too long to be real, not counted/);
    assert.ok(m.valueText.length < 200);
    await spend(['usage.updated', { cost: { amount: '0.05', currency: 'EUR' } }]);
    assert.strictEqual(
      (await meter()).valueText,
      '0.05 EUR (another currency than the cap, not counted) against a cap of 0.05 USD',
    );
    // A cap the record gives as received with a note; the header's plain cost gives way to the meter.
    await p.send({
      type: 'info',
      info: { runId: RUN, budget: { amount: 'lots', currency: 'USD' }, spent: null, cost: '0.01 USD' },
    });
    await p.js(FRAMES);
    assert.strictEqual((await meter()).valueText, 'lots USD (not a decimal amount, not counted)');
    assert.strictEqual(await p.js(`document.getElementById('run-cost').hidden`), true);
    const said = await p.js<{ polite: string[]; assertive: string[] }>('window.__said');
    assert.deepStrictEqual(said, { polite: [], assertive: [] });
  });

  it('draws a flood of usage.updated as its newest value, and a run without a cap has no meter', async () => {
    await p.send(reset({ budget: usd('1.00'), spent: null }));
    await p.js(FRAMES);
    const flood: Array<[string, Record<string, unknown>]> = [];
    for (let i = 1; i <= 1000; i++) {
      flood.push(['usage.updated', { cost: usd((i / 2000).toFixed(4)) }]);
    }
    await spend(...flood);
    assert.strictEqual((await meter()).valueText, '0.5000 of 1.00 USD, 50 %');
    await p.send(reset({ budget: null, spent: usd('0.02'), cost: '0.02 USD' }));
    await p.js(FRAMES);
    assert.strictEqual((await meter()).hidden, true);
    assert.strictEqual(await p.js(`document.getElementById('run-cost').textContent`), 'Cost: 0.02 USD');
  });
});
