// The names src/common/ids.ts shares with package.json, checked both ways: every command, view and
// setting named there is contributed by the manifest, and every agentRuntime.* command, view and
// setting the manifest contributes is named there. A rename is one edit in ids.ts plus the manifest.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CHAT_PARTICIPANT_ID, Commands, Settings, ViewIds } from '../../../src/common/ids';

interface Manifest {
  contributes: {
    commands: Array<{ command: string }>;
    views: Record<string, Array<{ id: string }>>;
    viewsContainers: Record<string, Array<{ id: string }>>;
    chatParticipants: Array<{ id: string }>;
    configuration: { properties: Record<string, unknown> } | Array<{ properties: Record<string, unknown> }>;
  };
}

const manifestPath = path.join(__dirname, '..', '..', '..', '..', 'package.json');

/** The names in `wanted` that `have` lacks, sorted, so a failure lists them all. */
function missing(wanted: Iterable<string>, have: Iterable<string>): string[] {
  const set = new Set(have);
  return [...new Set(wanted)].filter((name) => !set.has(name)).sort();
}

const ours = (name: string) => name.startsWith('agentRuntime.');

describe('common/ids and package.json', () => {
  const { contributes } = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;
  const commands = contributes.commands.map((c) => c.command);
  const views = Object.values(contributes.views).flatMap((list) => list.map((v) => v.id));
  const containers = Object.values(contributes.viewsContainers).flatMap((list) => list.map((c) => c.id));
  const settings = [contributes.configuration].flat().flatMap((c) => Object.keys(c.properties));
  const { container, ...namedViews } = ViewIds;
  const { section, ...namedSettings } = Settings;

  it('contributes every command ids.ts names', () => {
    assert.deepEqual(missing(Object.values(Commands), commands), [], 'in ids.ts, not in contributes.commands');
  });

  it('names in ids.ts every agentRuntime.* command the manifest contributes', () => {
    assert.deepEqual(missing(commands.filter(ours), Object.values(Commands)), [], 'contributed, not in ids.ts');
  });

  it('contributes every view ids.ts names, and the container', () => {
    assert.deepEqual(missing(Object.values(namedViews), views), [], 'in ids.ts, not in contributes.views');
    assert.ok(containers.includes(container), `no view container ${container}`);
  });

  it('names in ids.ts every agentRuntime.* view the manifest contributes', () => {
    assert.deepEqual(missing(views.filter(ours), Object.values(namedViews)), [], 'contributed, not in ids.ts');
  });

  it('contributes every setting ids.ts names, and names every agentRuntime.* setting', () => {
    assert.deepEqual(missing(Object.values(namedSettings), settings), [], 'in ids.ts, not contributed');
    assert.ok(settings.every((key) => key.startsWith(`${section}.`)));
    assert.deepEqual(missing(settings.filter(ours), Object.values(namedSettings)), [], 'contributed, not in ids.ts');
  });

  it('contributes the chat participant ids.ts names, and only it', () => {
    assert.deepEqual(
      contributes.chatParticipants.map((c) => c.id),
      [CHAT_PARTICIPANT_ID],
    );
  });
});
