// scripts/check-l10n.js on a small extension tree in a temporary folder: it passes when everything
// is extracted and translated, and each of its rules fails it, naming the string, when that one
// thing is broken. The rules run in-process (loading the extractor once); the command line is run
// for real once passing and once failing, for its exit code and output.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../../e2e/harness/paths';

const SCRIPT = path.join(repoRoot(), 'scripts', 'check-l10n.js');

type Tree = Record<string, string>;

const json = (value: unknown) => `${JSON.stringify(value, undefined, 2)}\n`;

/** A complete tree: one editor module, one pure module taking a `Translate`, the manifest. */
function completeTree(): Tree {
  return {
    'package.json': json({
      name: 'fixture',
      l10n: './l10n',
      contributes: { commands: [{ command: 'x.go', title: '%command.go%' }] },
    }),
    'package.nls.json': json({ 'command.go': 'Go', welcome: 'Nothing yet.\n[Sign In](command:x.signIn)' }),
    'package.nls.de.json': json({ 'command.go': 'Los', welcome: 'Noch nichts.\n[Anmelden](command:x.signIn)' }),
    'src/editor.ts': [
      "import * as vscode from 'vscode';",
      "export const hello = (name: string) => vscode.l10n.t('Hello {0}', name);",
      "export const upload = () => vscode.l10n.t('$(cloud-upload) Upload');",
      '',
    ].join('\n'),
    'src/pure.ts': [
      "import type { Translate } from './translate';",
      "export function size(bytes: number, t: Translate): string { return t('{0} bytes', bytes); }",
      '',
    ].join('\n'),
    'src/translate.ts': 'export type Translate = (message: string, ...args: Array<string | number>) => string;\n',
    'l10n/bundle.l10n.json': json({
      'Hello {0}': 'Hello {0}',
      '$(cloud-upload) Upload': '$(cloud-upload) Upload',
      '{0} bytes': '{0} bytes',
    }),
    'l10n/bundle.l10n.de.json': json({
      'Hello {0}': 'Hallo {0}',
      '$(cloud-upload) Upload': '$(cloud-upload) Hochladen',
      '{0} bytes': '{0} Bytes',
    }),
  };
}

function editJson(tree: Tree, file: string, edit: (value: Record<string, unknown>) => void): Tree {
  const value = JSON.parse(tree[file]) as Record<string, unknown>;
  edit(value);
  return { ...tree, [file]: json(value) };
}

let dirs: string[] = [];

function write(tree: Tree): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'check-l10n-'));
  dirs.push(root);
  for (const [file, text] of Object.entries(tree)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

function runCli(tree: Tree): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [SCRIPT, '--root', write(tree)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain Node script, not a typed module
const { checkL10n } = require(SCRIPT) as { checkL10n(root: string): Promise<string[]> };

async function assertFails(tree: Tree, ...expected: RegExp[]): Promise<void> {
  const problems = await checkL10n(write(tree));
  const out = problems.join('\n');
  assert.ok(problems.length > 0, 'the check passed');
  for (const pattern of expected) {
    assert.match(out, pattern);
  }
}

describe('scripts/check-l10n.js', () => {
  afterEach(() => {
    for (const dir of dirs) {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    dirs = [];
  });

  it('passes a tree whose strings are all extracted and translated (exit 0)', async () => {
    assert.deepEqual(await checkL10n(write(completeTree())), []);
    const r = runCli(completeTree());
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /l10n check: .*\(de\)/);
  });

  it('on the command line, exits 1 and lists what is missing', () => {
    const tree = editJson(completeTree(), 'l10n/bundle.l10n.de.json', (b) => delete b['Hello {0}']);
    const r = runCli(tree);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /l10n check failed:\n {2}- l10n\/bundle\.l10n\.de\.json: 1 untranslated:\n {4}"Hello \{0\}"/);
  });

  it('(a) fails when a vscode.l10n.t string of src/ is not in bundle.l10n.json', async () => {
    const tree = completeTree();
    tree['src/editor.ts'] += "export const bye = () => vscode.l10n.t('Goodbye');\n";
    await assertFails(
      tree,
      /bundle\.l10n\.json: 1 strings of src\/ are missing \(run `npm run l10n:export`\)/,
      /"Goodbye"/,
    );
  });

  it('(a) fails when a pure module calls its Translate with a string the bundle lacks', async () => {
    const tree = completeTree();
    tree['src/pure.ts'] += "export const none = (t: Translate) => t('No files');\n";
    await assertFails(tree, /strings of src\/ are missing/, /"No files"/);
  });

  it('(a) fails when the bundle holds a string src/ no longer has', async () => {
    const tree = editJson(completeTree(), 'l10n/bundle.l10n.json', (b) => (b.Gone = 'Gone'));
    await assertFails(tree, /1 strings src\/ no longer has/, /"Gone"/);
  });

  it('(b) fails when a key of bundle.l10n.json is missing from bundle.l10n.de.json', async () => {
    const tree = editJson(completeTree(), 'l10n/bundle.l10n.de.json', (b) => delete b['{0} bytes']);
    await assertFails(tree, /bundle\.l10n\.de\.json: 1 untranslated/, /"\{0\} bytes"/);
  });

  it('(b) fails when the German bundle is missing altogether', async () => {
    const tree = completeTree();
    delete tree['l10n/bundle.l10n.de.json'];
    await assertFails(tree, /bundle\.l10n\.de\.json: missing/);
  });

  it('(c) fails when a translation loses or changes a placeholder', async () => {
    const tree = editJson(completeTree(), 'l10n/bundle.l10n.de.json', (b) => (b['Hello {0}'] = 'Hallo {1}'));
    await assertFails(
      tree,
      /placeholders, codicons or command links differ/,
      /"Hello \{0\}": expected \[\{0\}\], found \[\{1\}\]/,
    );
  });

  it('(c) fails when a translation changes a codicon', async () => {
    const tree = editJson(
      completeTree(),
      'l10n/bundle.l10n.de.json',
      (b) => (b['$(cloud-upload) Upload'] = '$(hochladen) Hochladen'),
    );
    await assertFails(tree, /"\$\(cloud-upload\) Upload": expected \[\$\(cloud-upload\)\]/);
  });

  it('(d) fails when package.json uses a %key% package.nls.json lacks', async () => {
    const tree = editJson(completeTree(), 'package.json', (m) => {
      (m.contributes as { commands: Array<Record<string, string>> }).commands.push({
        command: 'x.stop',
        title: '%command.stop%',
      });
    });
    await assertFails(tree, /package\.nls\.json: 1 %keys% package\.json uses are missing/, /command\.stop/);
  });

  it('(f) fails when a walkthrough page has no German page beside it, passes once it has', async () => {
    const tree = editJson(completeTree(), 'package.json', (m) => {
      (m.contributes as Record<string, unknown>).walkthroughs = [
        { id: 'w', steps: [{ id: 's', media: { markdown: 'media/walkthrough/start.md' } }] },
      ];
    });
    tree['media/walkthrough/start.md'] = '# Start\n';
    await assertFails(tree, /walkthrough pages without a de translation:\n {4}media\/walkthrough\/start\.nls\.de\.md/);
    tree['media/walkthrough/start.nls.de.md'] = '# Anfang\n';
    assert.deepEqual(await checkL10n(write(tree)), []);
  });

  it('(e) fails when a key of package.nls.json is missing from package.nls.de.json', async () => {
    const tree = editJson(completeTree(), 'package.nls.de.json', (n) => delete n['command.go']);
    await assertFails(tree, /package\.nls\.de\.json: 1 untranslated/, /"command\.go"/);
  });

  it('(e) fails when a manifest translation changes a command link', async () => {
    const tree = editJson(
      completeTree(),
      'package.nls.de.json',
      (n) => (n.welcome = 'Noch nichts.\n[Anmelden](command:x.anmelden)'),
    );
    await assertFails(tree, /package\.nls\.de\.json: placeholders, codicons or command links differ/, /"welcome"/);
  });

  it('fails on keys a translation holds that the English no longer has', async () => {
    const tree = editJson(completeTree(), 'l10n/bundle.l10n.de.json', (b) => (b.Old = 'Alt'));
    await assertFails(tree, /bundle\.l10n\.de\.json: 1 keys the English no longer has/, /"Old"/);
  });
});
