// Before a folder upload sends anything, the person sees every file by name (in the dialog, or
// in its Show All before Upload is offered), and files that look like secrets are offered
// unticked: left out unless ticked. confirmPlan runs against a temporary folder with the editor's
// dialogs stubbed (each records what it showed and answers as the test says).
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { confirmPlan } from '../../../src/commands/uploadPrompts';
import { patchObjects } from '../commandSupport/commandHarness';
import * as stub from '../views/vscodeStub';

interface Modal {
  message: string;
  detail: string;
  items: string[];
}
interface Pick {
  title?: string;
  canPickMany: boolean;
  items: Array<{ label: string; picked?: boolean }>;
}

const modals: Modal[] = [];
const picks: Pick[] = [];
const notices: string[] = [];
/** How the next dialogs answer: a modal with one of its items (by prefix) or Cancel; a pick with the labels to return. */
let answerModal: (modal: Modal) => string | undefined = () => undefined;
let answerPick: (pick: Pick) => string[] | undefined = () => undefined;

const patches: Array<[object, Record<string, unknown>]> = [
  [
    stub.window,
    {
      showWarningMessage: async (message: string, options: { detail?: string }, ...items: string[]) => {
        const modal = { message, detail: options?.detail ?? '', items };
        modals.push(modal);
        return answerModal(modal);
      },
      showErrorMessage: async (message: string) => void notices.push(message),
      showInformationMessage: async (message: string) => void notices.push(message),
      showQuickPick: async (
        items: Array<{ label: string; picked?: boolean }>,
        options: { title?: string; canPickMany?: boolean },
      ) => {
        const pick = { title: options.title, canPickMany: options.canPickMany === true, items };
        picks.push(pick);
        const labels = answerPick(pick);
        if (labels === undefined) {
          return undefined;
        }
        const chosen = items.filter((i) => labels.includes(i.label));
        return pick.canPickMany ? chosen : chosen[0];
      },
    },
  ],
  [stub, { workspace: { workspaceFolders: [], getWorkspaceFolder: () => undefined } }],
];

const fileUri = (fsPath: string) => ({ scheme: 'file', fsPath }) as unknown as vscode.Uri;
const button = (prefix: string) => (modal: Modal) => modal.items.find((i) => i.startsWith(prefix));
/** Show All while the list is longer than the dialog, then the button. */
const afterShowAll = (prefix: string) => (modal: Modal) => button(prefix)(modal) ?? button('Show All')(modal);

describe('upload/sentFiles: what a folder upload sends, by name, secrets left out unless ticked', () => {
  let dir: string;
  let project: string;
  let unpatch = (): void => undefined;
  before(() => (unpatch = patchObjects(patches)));
  after(() => unpatch());

  const write = async (rel: string) => {
    const file = path.join(dir, rel);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, `content of ${rel}`);
    return file;
  };

  beforeEach(async () => {
    modals.length = 0;
    picks.length = 0;
    notices.length = 0;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sent-files-'));
    project = path.join(dir, 'project');
    for (let i = 0; i < 20; i++) {
      await write(`project/docs/page-${String(i).padStart(2, '0')}.md`);
    }
    await write('project/README.md');
    await write('project/.env');
    await write('project/.npmrc');
    await write('project/keys/id_rsa');
    await write('project/certs/server.pem');
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('offers the secret-looking files unticked and leaves out every one not ticked', async () => {
    answerPick = () => [];
    answerModal = afterShowAll('Upload 21 Files');
    const confirmed = await confirmPlan([fileUri(project)]);
    assert.ok(confirmed, `the upload went on: ${JSON.stringify(modals)}`);
    const secretPick = picks[0];
    assert.ok(secretPick?.canPickMany, 'a multi-select pick of the secret-looking files');
    assert.deepEqual(secretPick.items.map((i) => i.label).sort(), [
      'project/.env',
      'project/.npmrc',
      'project/certs/server.pem',
      'project/keys/id_rsa',
    ]);
    assert.ok(
      secretPick.items.every((i) => i.picked === false),
      'none is ticked to begin with',
    );
    const sent = confirmed.plan.files.map((f) => f.name);
    assert.equal(sent.length, 21);
    for (const leftOut of ['.env', '.npmrc', 'id_rsa', 'server.pem']) {
      assert.ok(!sent.some((n) => n.endsWith(leftOut)), `${leftOut} is not sent: ${sent.join(', ')}`);
    }
    assert.equal(
      confirmed.plan.totalBytes,
      confirmed.plan.files.reduce((n, f) => n + f.bytes, 0),
    );
    assert.match(
      picks[1].items.map((i) => i.label).join(''),
      /Left out as possible secrets \(not ticked\): .*project\/\.env/,
    );
  });

  it('sends a secret-looking file the person ticked, and only that one', async () => {
    answerPick = () => ['project/.npmrc'];
    answerModal = afterShowAll('Upload 22 Files');
    const confirmed = await confirmPlan([fileUri(project)]);
    assert.ok(confirmed);
    const sent = confirmed.plan.files.map((f) => f.name);
    assert.ok(sent.includes('project/.npmrc'), sent.join(', '));
    assert.ok(!sent.includes('project/.env'));
    assert.equal(sent.length, 22);
  });

  it('stops the upload when the pick of secret-looking files is dismissed', async () => {
    answerPick = () => undefined;
    answerModal = button('Upload');
    assert.equal(await confirmPlan([fileUri(project)]), undefined);
    assert.equal(modals.length, 0, 'no upload question after a dismissed pick');
  });

  it('lists every file by name: what the dialog cannot hold is in Show All, and Upload comes only after it', async () => {
    for (let i = 20; i < 45; i++) {
      await write(`project/docs/page-${String(i).padStart(2, '0')}.md`);
    }
    answerPick = (pick) => (pick.canPickMany ? [] : undefined);
    answerModal = (modal) => button('Upload 46 Files')(modal) ?? button('Show All')(modal);
    const confirmed = await confirmPlan([fileUri(project)]);
    assert.ok(confirmed, `the upload went on after the whole list: ${JSON.stringify(modals.map((m) => m.items))}`);
    const [first, second] = modals;
    assert.match(first.message, /46 files/);
    assert.deepEqual(first.items, ['Show All'], 'no Upload before the whole list was shown');
    const detailLines = first.detail.split('\n');
    assert.deepEqual(
      detailLines.slice(0, 10),
      confirmed.plan.files.slice(0, 10).map((f) => f.name),
    );
    assert.match(first.detail, /\.\.\.and \d+ more lines not shown here/);
    const all = picks[1];
    assert.ok(all && !all.canPickMany, 'the whole list, after Show All');
    for (const file of confirmed.plan.files) {
      assert.ok(
        all.items.some((i) => i.label === file.name),
        `${file.name} is in the whole list`,
      );
    }
    assert.ok(second.items.includes('Upload 46 Files'), 'Upload once the whole list was shown');
    assert.equal(modals.length, 2, 'back to the question after the list');
  });

  it('a folder that fits the dialog lists every file in it and asks at once', async () => {
    await fs.rm(path.join(project, 'docs'), { recursive: true });
    answerPick = () => [];
    answerModal = button('Upload 1 File');
    const confirmed = await confirmPlan([fileUri(project)]);
    assert.ok(confirmed);
    assert.equal(modals.length, 1);
    assert.equal(modals[0].detail.split('\n')[0], 'project/README.md');
  });

  it('sends nothing when the folder question is cancelled', async () => {
    answerPick = () => [];
    answerModal = () => undefined;
    assert.equal(await confirmPlan([fileUri(project)]), undefined);
  });

  it('asks about a secret-looking file selected on its own, without a folder dialog', async () => {
    const pem = path.join(project, 'certs/server.pem');
    const readme = path.join(project, 'README.md');
    answerPick = () => [];
    answerModal = () => assert.fail('no folder dialog for files selected one by one');
    const confirmed = await confirmPlan([fileUri(readme), fileUri(pem)]);
    assert.ok(confirmed);
    assert.deepEqual(
      picks[0].items.map((i) => i.label),
      ['server.pem'],
    );
    assert.deepEqual(
      confirmed.plan.files.map((f) => f.name),
      ['README.md'],
    );
  });

  it('says so when every file was left out as a possible secret', async () => {
    answerPick = () => [];
    const confirmed = await confirmPlan([fileUri(path.join(project, '.env'))]);
    assert.equal(confirmed, undefined);
    assert.match(notices.join('\n'), /Nothing was uploaded: the file that looks like a secret was left out/);
  });
});
