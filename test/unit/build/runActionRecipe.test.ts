// The README's "Adding a run action" held to the code: the row it shows is read from README.md and
// evaluated; given that row, the generator adds exactly the command, its tree menu and palette
// entries, its English title and its id (and nothing else), the panel offers it with its label,
// l10n:export finds the label, and the recipe's list of files edited by hand is what that takes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { commandIdsModule } from '../../../src/common/buildContributions';
import { untranslated } from '../../../src/common/translate';
import { declaredContributions } from '../../../src/contributions';
import {
  paletteWhen,
  panelActions,
  RUN_ACTIONS,
  type RunAction,
  runActionLabels,
  runContextValue,
  runFactsOf,
  type ServiceFacts,
  treeMenuEntries,
} from '../../../src/runEvents/runActions';
import { repoRoot } from '../../e2e/harness/paths';

const ROOT = repoRoot();

/** The README's section, from its heading to the next one. */
function recipe(): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('### Adding a run action');
  assert.ok(start >= 0, 'README.md has no "### Adding a run action"');
  const end = readme.indexOf('\n### ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The code blocks of the section, in order. */
function codeBlocks(text: string): string[] {
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1].replace(/^ {3}/gm, ''));
}

/** The recipe's row, evaluated as the table would (its `steers` helper given). */
function recipeRow(text: string): RunAction {
  const source = codeBlocks(text)[0].trim().replace(/,$/, '');
  const js = ts.transpileModule(`module.exports = (${source});`, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const module = { exports: {} as unknown };
  const steers = (service: ServiceFacts) => service.steering;
  new Function('module', 'steers', js)(module, steers);
  return module.exports as RunAction;
}

/** Entries of `after` that `before` lacks, compared as JSON (the generator only adds here). */
function added<T>(before: readonly T[], after: readonly T[]): T[] {
  const have = new Set(before.map((e) => JSON.stringify(e)));
  return after.filter((e) => !have.has(JSON.stringify(e)));
}

describe("README's recipe for a run action, held to the code", () => {
  const text = recipe();
  const row = recipeRow(text);
  // The table as it would be without the recipe's row (once someone adds that very row, the
  // recipe still holds: it is checked against the table without it).
  const table = RUN_ACTIONS.filter((a) => a.id !== row.id);
  const actions = [...table, row];

  it('shows a row with every field the table has, and a new id and command', () => {
    const fields = new Set(table.flatMap((a) => Object.keys(a)));
    for (const key of Object.keys(row)) {
      assert.ok(fields.has(key), `the recipe's row has ${key}, which no row of the table has`);
    }
    for (const key of fields) {
      assert.ok(key in row || key === 'inline', `the recipe's row lacks ${key}`);
    }
    assert.ok(!table.some((a) => a.id === row.id || a.command === row.command));
  });

  it('given the row, the generator adds its command, tree menu and palette entries, title and id, and nothing else', () => {
    const before = declaredContributions(table);
    const after = declaredContributions(actions);
    assert.deepEqual(after.problems, []);
    const name = row.command.replace(/^agentRuntime\./, '');
    const sections = (b: typeof before) => b.sections as Record<string, unknown>;
    assert.deepEqual(added(sections(before).commands as object[], sections(after).commands as object[]), [
      { command: row.command, title: `%command.${name}.title%`, category: '%category%', icon: `$(${row.icon})` },
    ]);
    const menus = (b: typeof before) => sections(b).menus as Record<string, object[]>;
    assert.deepEqual(
      added(menus(before)['view/item/context'], menus(after)['view/item/context']),
      treeMenuEntries(row),
    );
    assert.deepEqual(added(menus(before).commandPalette, menus(after).commandPalette), [
      { command: row.command, when: paletteWhen(row) },
    ]);
    for (const [section, value] of Object.entries(sections(before))) {
      if (section !== 'commands' && section !== 'menus') {
        assert.deepEqual(sections(after)[section], value, `${section} changed`);
      }
    }
    for (const [location, entries] of Object.entries(menus(before))) {
      if (location !== 'view/item/context' && location !== 'commandPalette') {
        assert.deepEqual(menus(after)[location], entries, `menus.${location} changed`);
      }
    }
    assert.deepEqual(
      Object.entries(after.nls).filter(([key]) => !(key in before.nls)),
      [[`command.${name}.title`, row.title]],
    );
    const ids = (b: typeof before) => commandIdsModule(b).split('\n');
    assert.deepEqual(added(ids(before), ids(after)), [`  ${name}: '${row.command}',`]);
  });

  it('puts the row on a failed run and in the panel with its label', () => {
    const failed = runFactsOf('failed');
    assert.match(runContextValue(failed, actions), new RegExp(` ${row.id}$`));
    assert.ok(panelActions(failed, { steering: true }, row.panel, actions).includes(row));
    assert.equal(runActionLabels(untranslated, actions)[`runAction.${row.id}`], row.label(untranslated));
  });

  it('names the keys and ids the generator makes: the German title key and Commands.<name>', () => {
    const name = row.command.replace(/^agentRuntime\./, '');
    assert.match(text, new RegExp(`"command\\.${name}\\.title": "[^"]+"`), 'the German title key');
    assert.ok(
      codeBlocks(text)[1].includes(`registerCommand(Commands.${name},`),
      'the handler registers Commands.<name>',
    );
    assert.ok(text.includes(`"${row.label(untranslated)}"`), "the German step names the panel's label");
  });

  it("l10n:export finds the row's panel label (a `t` call of a Translate parameter)", async function () {
    this.timeout(60_000);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { extractStrings } = require(path.join(ROOT, 'scripts', 'l10n-strings.js')) as {
      extractStrings(dir: string): Promise<Record<string, unknown>>;
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recipe-l10n-'));
    try {
      const source = codeBlocks(text)[0].trim().replace(/,$/, '');
      fs.writeFileSync(
        path.join(dir, 'row.ts'),
        `import type { Translate } from './translate';\nexport const row = ${source};\n`,
      );
      const strings = await extractStrings(dir);
      assert.ok(row.label(untranslated) in strings, `extracted: ${Object.keys(strings).join(', ')}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists as edited by hand exactly the table, one handler file and the German files', () => {
    const [, afterEdit] = text.split('Files you edit:');
    assert.ok(afterEdit, 'the recipe says "Files you edit: ..."');
    const [editList, afterWrite] = afterEdit.split('Files the two commands write:');
    assert.ok(afterWrite, 'the recipe says "Files the two commands write: ..."');
    const edited = [text, editList, afterWrite.split('\nNothing else')[0]];
    const files = (list: string) => [...list.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    assert.deepEqual(files(edited[1]), [
      'src/runEvents/runActions.ts',
      'src/steering/steeringCommands.ts',
      'package.nls.de.json',
      'l10n/bundle.l10n.de.json',
    ]);
    assert.deepEqual(files(edited[2]), [
      'package.json',
      'package.nls.json',
      'src/common/commandIds.generated.ts',
      'l10n/bundle.l10n.json',
    ]);
    for (const file of [...files(edited[1]), ...files(edited[2])]) {
      assert.ok(fs.existsSync(path.join(ROOT, file)), `${file} does not exist`);
    }
  });
});
