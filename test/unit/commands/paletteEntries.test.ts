// The commands that act on the view's selection when invoked without a row are offered in the
// Command Palette once signed in: hidden ("when": "false"), the fallback could not be reached.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

interface MenuEntry {
  command: string;
  when?: string;
}

const manifestPath = path.join(__dirname, '..', '..', '..', '..', 'package.json');

// The users of nodeArgs' selection fallback (docs/ARCHITECTURE.md, "The composition root and
// commands", **Which row.**).
const SELECTION_COMMANDS = [
  'deleteFile',
  'newTaskWithFiles',
  'copyId',
  'showArtifacts',
  'copyRunLink',
  'openArtifact',
  'saveArtifact',
  'reviewChanges',
  'resumeRun',
  'forkRun',
];

describe('Command Palette entries of the selection commands', () => {
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as {
    contributes: { menus: { commandPalette: MenuEntry[] } };
  };
  const palette = manifest.contributes.menus.commandPalette;

  for (const name of SELECTION_COMMANDS) {
    it(`offers agentRuntime.${name} when signed in`, () => {
      const entry = palette.find((e) => e.command === `agentRuntime.${name}`);
      assert.ok(entry, 'no commandPalette entry');
      assert.match(entry.when ?? '', /^agentRuntime\.signedIn\b/);
    });
  }
});
