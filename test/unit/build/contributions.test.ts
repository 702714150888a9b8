// The contributions declared beside each feature are what package.json, package.nls.json and the
// command id union hold (the check CI runs), and the generator's messages say what to declare
// where: a command someone added to package.json by hand is named with the file to declare it in,
// and `npm run contributions` refuses to drop it. The command line runs for real on a copy of the
// tree for its exit code and output.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  applyToManifest,
  applyToNls,
  buildContributions,
  commandIdsModule,
  isGeneratedNlsKey,
  manifestDifferences,
} from '../../../src/common/buildContributions';
import { Commands } from '../../../src/common/ids';
import { declaredContributions, declaredFeatures } from '../../../src/contributions';
import { repoRoot } from '../../e2e/harness/paths';

const ROOT = repoRoot();
const SCRIPT = path.join(ROOT, 'scripts', 'generate-contributions.js');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** A command as someone adds it to package.json by hand on a branch of their own. */
const handAdded = {
  command: 'agentRuntime.pinRun',
  title: '%command.pinRun.title%',
  category: '%category%',
  icon: '$(pin)',
};

describe('contributions: declared once, generated into package.json', () => {
  it('package.json, package.nls.json and commandIds.generated.ts are what the declarations make', () => {
    const built = declaredContributions();
    assert.deepEqual(built.problems, []);
    assert.deepEqual(manifestDifferences(JSON.parse(read('package.json')), built), []);
    assert.equal(applyToManifest(read('package.json'), built), read('package.json'), 'run npm run contributions');
    assert.equal(applyToNls(read('package.nls.json'), built), read('package.nls.json'), 'run npm run contributions');
    assert.equal(commandIdsModule(built), read('src/common/commandIds.generated.ts'), 'run npm run contributions');
  });

  it('names every declared command in Commands, and nothing else (no id is listed by hand)', () => {
    const built = declaredContributions();
    assert.deepEqual(
      Object.entries(Commands),
      built.commands.map((c) => [c.name, c.id]),
    );
  });

  it('gives every command a title, and the views and keys the names package.nls.json uses', () => {
    const built = declaredContributions();
    for (const c of built.commands) {
      assert.ok(built.nls[`command.${c.name}.title`], `${c.id}: no title`);
    }
    assert.ok(Object.keys(built.nls).every(isGeneratedNlsKey));
    assert.ok(!isGeneratedNlsKey('configuration.baseUrl.markdownDescription'));
    assert.ok(!isGeneratedNlsKey('walkthrough.title'));
  });

  it('names the file to declare a hand-added command in, and the run to do', () => {
    const manifest = JSON.parse(read('package.json'));
    manifest.contributes.commands.push(handAdded);
    manifest.contributes.menus.commandPalette.push({ command: handAdded.command, when: 'false' });
    const lines = manifestDifferences(manifest, declaredContributions(), (id) =>
      id === handAdded.command ? 'steering' : undefined,
    );
    assert.deepEqual(lines, [
      `commands: package.json has ${JSON.stringify(handAdded)}, which no declaration makes: declare agentRuntime.pinRun in src/steering/contributions.ts and run npm run contributions`,
      `menus.commandPalette: package.json has {"command":"agentRuntime.pinRun","when":"false"}, which no declaration makes: declare agentRuntime.pinRun in src/steering/contributions.ts and run npm run contributions`,
    ]);
  });

  it('says which entry a hand edit changed, and what package.json lacks', () => {
    const manifest = JSON.parse(read('package.json'));
    const entry = manifest.contributes.menus['view/title'].find(
      (e: { command: string }) => e.command === Commands.refreshApprovals,
    );
    entry.group = 'navigation@9';
    const lines = manifestDifferences(manifest, declaredContributions());
    assert.equal(lines.length, 2);
    assert.match(
      lines[0],
      /^menus\.view\/title: package\.json has .*navigation@9.*agentRuntime\.refreshApprovals's declaration does not make: change it in src\/steering\/contributions\.ts/,
    );
    assert.match(lines[1], /^menus\.view\/title: package\.json lacks .*navigation@1.*run npm run contributions$/);
  });

  it('finds a command declared twice and a welcome link to a command no feature declares', () => {
    const built = buildContributions([
      ...declaredFeatures(),
      { source: 'src/x/contributions.ts', contributions: { commands: [{ id: Commands.signIn, title: 'Again' }] } },
      {
        source: 'src/y/contributions.ts',
        contributions: {
          views: [
            {
              id: 'agentRuntime.y',
              name: 'Y',
              container: 'agentRuntime',
              position: 99,
              welcome: [{ contents: '[Go](command:agentRuntime.nowhere)' }],
            },
          ],
        },
      },
    ]);
    assert.deepEqual(built.problems, [
      'agentRuntime.signIn is declared twice (again in src/x/contributions.ts)',
      'viewsWelcome.y.0 links to agentRuntime.nowhere, which no feature declares',
    ]);
  });

  it('keeps package.nls.json hand-written keys and their lines, drops stale generated ones, adds new ones last', () => {
    const built = buildContributions([
      { source: 's', contributions: { commands: [{ id: 'agentRuntime.go', title: 'Go' }] } },
    ]);
    const text = `${JSON.stringify({ 'walkthrough.title': 'W', 'command.gone.title': 'Gone', category: 'Old' }, null, 2)}\n`;
    assert.deepEqual(JSON.parse(applyToNls(text, built)), {
      'walkthrough.title': 'W',
      category: 'Agent Runtime',
      'command.go.title': 'Go',
    });
    assert.deepEqual(Object.keys(JSON.parse(applyToNls(text, built))), [
      'walkthrough.title',
      'category',
      'command.go.title',
    ]);
  });

  describe('the command line', function () {
    this.timeout(60_000);
    let tree: string;

    beforeEach(() => {
      tree = fs.mkdtempSync(path.join(os.tmpdir(), 'contributions-'));
      for (const file of ['package.json', 'package.nls.json', 'package.nls.de.json']) {
        fs.copyFileSync(path.join(ROOT, file), path.join(tree, file));
      }
      fs.cpSync(path.join(ROOT, 'src'), path.join(tree, 'src'), { recursive: true });
    });

    afterEach(() => fs.rmSync(tree, { recursive: true, force: true }));

    const run = (...args: string[]) =>
      spawnSync(process.execPath, [SCRIPT, '--root', tree, ...args], { encoding: 'utf8' });

    it('--check passes on the tree as it is, and fails naming a hand-added command and where to declare it', () => {
      const ok = run('--check');
      assert.equal(ok.status, 0, ok.stderr);

      const manifest = JSON.parse(fs.readFileSync(path.join(tree, 'package.json'), 'utf8'));
      manifest.contributes.commands.push(handAdded);
      fs.writeFileSync(path.join(tree, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      fs.writeFileSync(
        path.join(tree, 'src', 'steering', 'pinCommand.ts'),
        "import { Commands } from '../common/ids';\nexport const id = Commands.pinRun;\n",
      );
      const failed = run('--check');
      assert.equal(failed.status, 1);
      assert.match(failed.stderr, /^package\.json's contributes differs from the declarations:$/m);
      assert.match(
        failed.stderr,
        /declare agentRuntime\.pinRun in src\/steering\/contributions\.ts and run npm run contributions/,
      );

      const write = run();
      assert.equal(write.status, 1, 'writing would drop the hand-added command');
      assert.match(write.stderr, /writing would drop them/);
      assert.ok(fs.readFileSync(path.join(tree, 'package.json'), 'utf8').includes('agentRuntime.pinRun'));
    });

    it('writes a declared command into package.json, package.nls.json and the ids, and says the German to add', () => {
      const file = path.join(tree, 'src', 'steering', 'contributions.ts');
      const text = fs.readFileSync(file, 'utf8');
      fs.writeFileSync(
        file,
        text.replace(
          '  commands: [\n',
          "  commands: [\n    { id: 'agentRuntime.pinRun', title: 'Pin Run', icon: 'pin', palette: false },\n",
        ),
      );
      const written = run();
      assert.equal(written.status, 0, written.stderr);
      assert.match(written.stdout, /package\.nls\.de\.json needs the German of: command\.pinRun\.title/);
      const manifest = JSON.parse(fs.readFileSync(path.join(tree, 'package.json'), 'utf8'));
      assert.ok(manifest.contributes.commands.some((c: { command: string }) => c.command === 'agentRuntime.pinRun'));
      assert.equal(
        JSON.parse(fs.readFileSync(path.join(tree, 'package.nls.json'), 'utf8'))['command.pinRun.title'],
        'Pin Run',
      );
      assert.match(
        fs.readFileSync(path.join(tree, 'src/common/commandIds.generated.ts'), 'utf8'),
        /pinRun: 'agentRuntime\.pinRun'/,
      );
      assert.equal(run('--check').status, 0);
    });

    it('refuses declarations that import vscode, saying they must be plain data', () => {
      const file = path.join(tree, 'src', 'memory', 'contributions.ts');
      fs.writeFileSync(
        file,
        `import * as vscode from 'vscode';\nexport const v = vscode;\n${fs.readFileSync(file, 'utf8')}`,
      );
      const failed = run('--check');
      assert.equal(failed.status, 1);
      assert.match(failed.stderr, /plain data only, no vscode import/);
    });
  });
});
