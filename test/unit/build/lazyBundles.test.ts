// The production build's lazy files (esbuild.js LAZY_FILES): undici, yazl, jsdiff, Review Changes,
// the run panel, the chat handler, the language model tools and the project commands ship as files of their own, loaded on first use and not when extension.js is
// required; no module is in two of them (a second copy of a module would be a second class or a
// second singleton); and a missing file says how to fix it.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Plugin } from 'esbuild';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

interface BuildScript {
  lazyFiles: Plugin;
  vscodeOnce: Plugin;
  UNDICI_FILE: string;
}

// The third-party modules loaded on first use through a loader of ours, and what proves them loaded.
const LAZY_PACKAGES = [
  { file: 'yazl.js', pkg: 'node_modules/yazl/', loader: 'src/upload/yazl.ts', load: 'loadYazl', member: 'ZipFile' },
  { file: 'diff.js', pkg: 'node_modules/diff/', loader: 'src/review/jsdiff.ts', load: 'loadDiff', member: 'diffLines' },
];

interface Metafile {
  inputs: Record<string, unknown>;
}

// A `vscode` module with every top-level name of the API as a deep stub (as in the bundle benchmark).
const STUB = `
const d = require('fs').readFileSync(${JSON.stringify(path.join(ROOT, 'node_modules', '@types', 'vscode', 'index.d.ts'))}, 'utf8');
const names = new Set([...d.matchAll(/^\\s+export (?:namespace|class|enum|const|function|let) (\\w+)/gm)].map((m) => m[1]));
const make = () => new Proxy(function () {}, { get: (t, k) => (k === Symbol.toPrimitive ? () => '' : k === 'prototype' ? {} : make()), apply: () => make(), construct: () => make() });
module.exports = Object.fromEntries([...names].map((n) => [n, make()]));
`;

const loadedCheck = (file: string) =>
  `Object.keys(require.cache).some((f) => path.basename(f) === ${JSON.stringify(file)})`;
const UNDICI_LOADED = loadedCheck('undici.js');
const LAZY_NAMES = JSON.stringify([
  'undici.js',
  'review.js',
  'runpanel.js',
  'chat.js',
  'tools.js',
  'projects.js',
  ...LAZY_PACKAGES.map((p) => p.file),
]);

// The lazy bundles of our own code (LAZY_FILES `shares`), and an export that proves each loaded.
const SHARING = [
  { file: 'review.js', member: 'createReview' },
  { file: 'runpanel.js', member: 'RunPanelManager' },
  { file: 'chat.js', member: 'createChatHandler' },
  { file: 'tools.js', member: 'createToolHandlers' },
  { file: 'projects.js', member: 'newTaskFlow' },
];

// Requires the bundle (vscode stubbed) and reports whether dist/undici.js came with it.
const REQUIRE_EXTENSION = `
const path = require('node:path');
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? process.env.VSCODE_STUB : resolve.call(this, request, ...rest); };
const ext = require(process.env.BUNDLE);
const lazyLoaded = ${LAZY_NAMES}.filter((name) => Object.keys(require.cache).some((f) => path.basename(f) === name));
console.log(JSON.stringify({ activate: typeof ext.activate, lazyLoaded }));
`;

// Loads the probe (the API transport bundled as extension.js is) and sends one request to loopback.
const REQUEST_THROUGH_PROBE = `
const path = require('node:path');
const http = require('node:http');
const { UndiciTransport: Transport } = require(process.env.PROBE);
(async () => {
  const before = ${UNDICI_LOADED};
  const server = http.createServer((req, res) => res.end('pong'));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const transport = new Transport({ timeoutMs: 10000 });
  let result;
  try {
    const res = await transport.request({ origin: 'http://127.0.0.1:' + server.address().port, path: '/', method: 'GET', headers: {} });
    let body = '';
    for await (const chunk of res.body) body += Buffer.from(chunk).toString();
    result = { status: res.status, body };
  } catch (err) {
    result = { error: String(err && err.message), code: err && err.code };
  }
  await transport.destroy();
  server.close();
  console.log(JSON.stringify({ before, after: ${UNDICI_LOADED}, ...result }));
})();
`;

// Requires extension.js (vscode stubbed), then a sharing bundle (FILE) beside it as its guard does:
// every module it takes from extension.js must be there, as a namespace with its exports.
const REQUIRE_SHARING = `
const path = require('node:path');
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? process.env.VSCODE_STUB : resolve.call(this, request, ...rest); };
const ext = require(process.env.BUNDLE);
const shared = ext.__shared;
const file = path.join(path.dirname(process.env.BUNDLE), process.env.FILE);
const asked = [...require('node:fs').readFileSync(file, 'utf8').matchAll(/__shared\\[("[^"]+")\\]/g)].map((m) => JSON.parse(m[1]));
const lazy = require(file);
const missing = asked.filter((k) => !shared[k] || Object.keys(shared[k]).length === 0);
console.log(JSON.stringify({ member: typeof lazy[process.env.MEMBER], asked: [...new Set(asked)].sort(), missing, sharedKeys: Object.keys(shared).sort() }));
`;

// Requires extension.js, then each sharing bundle (FILES), with a vscode stub that counts how
// often its property names are listed: each listing is one copy of the module (esbuild's
// __toESM or __reExport), made at load.
const COUNT_VSCODE_COPIES = `
const path = require('node:path');
const Module = require('node:module');
const stub = require(process.env.VSCODE_STUB);
let listed = 0;
const counting = new Proxy(stub, { ownKeys: (target) => { listed++; return Reflect.ownKeys(target); } });
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? 'vscode-counting' : resolve.call(this, request, ...rest); };
require.cache['vscode-counting'] = { id: 'vscode-counting', filename: 'vscode-counting', loaded: true, exports: counting };
const copies = {};
require(process.env.BUNDLE);
copies['extension.js'] = listed;
for (const file of JSON.parse(process.env.FILES)) {
  const before = listed;
  require(path.join(path.dirname(process.env.BUNDLE), file));
  copies[file] = listed - before;
}
console.log(JSON.stringify(copies));
`;

// A vscode module that records what the run panel's loader registers and shows; the rest as STUB.
const RECORDING_STUB = `
const stub = require(process.env.VSCODE_STUB);
const record = (global.vscodeRecord = { serializers: [], shown: [], tools: [], participants: [], commands: [] });
const show = (message) => { record.shown.push(message); return Promise.resolve(undefined); };
const lm = { registerTool: (name, tool) => { record.tools.push({ name, tool }); return { dispose() {} }; } };
// A tool's result as data (the deep stub's objects are thenables, which an await never settles).
class LanguageModelTextPart { constructor(value) { this.value = value; } }
class LanguageModelToolResult { constructor(content) { this.content = content; } }
const commands = { registerCommand: (id, run) => { record.commands.push({ id, run }); return { dispose() {} }; } };
const chat = { createChatParticipant: (id, handler) => { const participant = { id, handler, dispose() {} }; record.participants.push(participant); return participant; } };
const window = { registerWebviewPanelSerializer: (viewType, provider) => { record.serializers.push({ viewType, provider }); return { dispose() {} }; }, showErrorMessage: show, showWarningMessage: show, showInformationMessage: show };
const l10n = { t: (message, ...args) => String(message).replace(/\\{(\\d+)\\}/g, (m, i) => String(args[Number(i)])) };
module.exports = { ...stub, window: new Proxy(window, { get: (t, k) => (k in t ? t[k] : stub.window[k]) }), l10n, lm, chat, commands, LanguageModelTextPart, LanguageModelToolResult };
`;

// The run panel's loader bundled as extension.js has it: registers the serializer as activation
// does, then VS Code restores a panel (saved state: none) and a command opens a run.
const RESTORE_THROUGH_PROBE = `
const path = require('node:path');
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? process.env.RECORDING_STUB : resolve.call(this, request, ...rest); };
const { LazyRunPanelManager } = require(process.env.PROBE);
const logged = [];
const log = { info: (m) => logged.push('info: ' + m), error: (m) => logged.push('error: ' + m), warn: (m) => logged.push('warn: ' + m) };
(async () => {
  const manager = new LazyRunPanelManager({ log });
  manager.registerSerializer();
  const before = ${loadedCheck('runpanel.js')};
  const [serializer] = global.vscodeRecord.serializers;
  let disposed = false;
  let restored;
  try {
    await serializer.provider.deserializeWebviewPanel({ dispose: () => { disposed = true; } }, undefined);
    restored = 'resolved';
  } catch (err) {
    restored = 'rejected: ' + (err && err.message);
  }
  let opened;
  try {
    manager.open('not-a-run');
    opened = 'returned';
  } catch (err) {
    opened = 'threw: ' + (err && err.message);
  }
  console.log(JSON.stringify({ viewType: serializer.viewType, before, after: ${loadedCheck('runpanel.js')}, restored, disposed, opened, shown: global.vscodeRecord.shown, logged }));
})();
`;

// The tools' loader bundled as extension.js has it: registers the tools as activation does, then
// VS Code invokes one (its spec runs: the context's isSignedIn throws, which the tool logs).
const INVOKE_TOOL_THROUGH_PROBE = `
const path = require('node:path');
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? process.env.RECORDING_STUB : resolve.call(this, request, ...rest); };
const { registerTools } = require(process.env.PROBE);
const logged = [];
const log = { info: (m) => logged.push('info: ' + m), error: (m) => logged.push('error: ' + m), warn: (m) => logged.push('warn: ' + m) };
const ctx = { isSignedIn: () => { throw new Error('the spec ran'); } };
(async () => {
  const registered = registerTools(ctx, log);
  const before = ${loadedCheck('tools.js')};
  const named = global.vscodeRecord.tools.map((t) => t.name);
  const tool = global.vscodeRecord.tools.find((t) => t.name === 'agentRuntime_getRun').tool;
  const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
  let invoked;
  try {
    const result = await tool.invoke({ input: { runId: 'run_abc' } }, token);
    invoked = result.content.map((part) => part.value).join('');
  } catch (err) {
    invoked = 'rejected: ' + (err && err.message);
  }
  console.log(JSON.stringify({ named, handles: [...registered.tools.keys()], before, after: ${loadedCheck('tools.js')}, invoked, logged }));
})();
`;

// The chat participant's loader bundled as extension.js has it: registers the participant as
// activation does, then a request comes (not signed in: the handler answers with a Sign In button).
const CHAT_THROUGH_PROBE = `
const path = require('node:path');
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? process.env.RECORDING_STUB : resolve.call(this, request, ...rest); };
const { registerChatParticipant } = require(process.env.PROBE);
const logged = [];
const deps = { isSignedIn: () => false, log: { warn: (m) => logged.push('warn: ' + m) } };
(async () => {
  registerChatParticipant(deps, {});
  const before = ${loadedCheck('chat.js')};
  const [participant] = global.vscodeRecord.participants;
  const buttons = [];
  const stream = { markdown: () => undefined, progress: () => undefined, button: (b) => buttons.push(b.command) };
  const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
  let answered;
  try {
    answered = await participant.handler({ prompt: '', command: undefined, references: [] }, { history: [] }, stream, token);
  } catch (err) {
    answered = 'rejected: ' + (err && err.message);
  }
  console.log(JSON.stringify({ id: participant.id, before, after: ${loadedCheck('chat.js')}, answered, buttons, logged }));
})();
`;

// The project commands' loader bundled as extension.js has it: registers the commands as
// activation does, then Show the Project's Tasks runs (a project shown: it goes back to all tasks).
const PROJECT_COMMAND_THROUGH_PROBE = `
const path = require('node:path');
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? process.env.RECORDING_STUB : resolve.call(this, request, ...rest); };
const { registerProjectCommands } = require(process.env.PROBE);
// A command's guard as activation gives it (CommandDeps.guard): what it reports, it returns here.
const deps = { guard: (name, run) => async (...args) => { try { return await run(...args); } catch (err) { return name + ': ' + (err && err.message); } } };
const scopes = [];
const view = { projectScope: { id: 'prj_1', label: 'p' }, setProjectScope: (scope) => scopes.push(scope === undefined ? 'all tasks' : scope) };
(async () => {
  registerProjectCommands(deps, view);
  const before = ${loadedCheck('projects.js')};
  const ids = global.vscodeRecord.commands.map((c) => c.id);
  const toggled = await global.vscodeRecord.commands.find((c) => c.id === 'agentRuntime.toggleProjectTasks').run();
  console.log(JSON.stringify({ ids, before, after: ${loadedCheck('projects.js')}, toggled: toggled === undefined ? 'done' : toggled, scopes }));
})();
`;

// Loads a loader of ours bundled as extension.js has it, and calls it once.
const loadThroughProbe = (file: string) => `
const path = require('node:path');
const loader = require(process.env.PROBE);
const before = ${loadedCheck(file)};
let result;
try {
  result = { member: typeof loader[process.env.LOAD]()[process.env.MEMBER] };
} catch (err) {
  result = { error: String(err && err.message) };
}
console.log(JSON.stringify({ before, after: ${loadedCheck(file)}, ...result }));
`;

function runNode(script: string, env: Record<string, string>): Record<string, unknown> {
  const res = spawnSync(process.execPath, ['-e', script], { env: { ...process.env, ...env }, encoding: 'utf8' });
  assert.equal(res.status, 0, res.stderr);
  return JSON.parse(res.stdout.trim()) as Record<string, unknown>;
}

describe('lazy bundles (production build)', function () {
  this.timeout(120_000);
  let out: string;
  let script: BuildScript;

  before(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'lazy-bundles-'));
    execFileSync(process.execPath, [path.join(ROOT, 'esbuild.js'), '--production', '--metafile', `--outdir=${out}`], {
      cwd: ROOT,
      stdio: 'pipe',
    });
    fs.writeFileSync(path.join(out, 'vscode-stub.js'), STUB);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- esbuild.js is a CommonJS script without types
    script = require(path.join(ROOT, 'esbuild.js')) as BuildScript;
    await esbuild.build({
      entryPoints: [path.join(ROOT, 'src', 'api', 'network', 'undiciTransport.ts')],
      outfile: path.join(out, 'probe.js'),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      logLevel: 'silent',
      plugins: [script.lazyFiles],
    });
    fs.writeFileSync(path.join(out, 'vscode-recording-stub.js'), RECORDING_STUB);
    await esbuild.build({
      entryPoints: [path.join(ROOT, 'src', 'runPanel', 'runPanelLoader.ts')],
      outfile: path.join(out, 'probe-runpanel.js'),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      external: ['vscode'],
      logLevel: 'silent',
      // As extension.js has it: the vscode module through the one re-exporting module.
      plugins: [script.vscodeOnce, script.lazyFiles],
    });
    for (const [loader, probe] of [
      ['src/chat/chatLoader.ts', 'probe-chat.js'],
      ['src/languageModelTools/toolsLoader.ts', 'probe-tools.js'],
      ['src/projects/projectLoader.ts', 'probe-projects.js'],
    ]) {
      await esbuild.build({
        entryPoints: [path.join(ROOT, loader)],
        outfile: path.join(out, probe),
        bundle: true,
        platform: 'node',
        format: 'cjs',
        external: ['vscode'],
        logLevel: 'silent',
        plugins: [script.vscodeOnce, script.lazyFiles],
      });
    }
    for (const lazy of LAZY_PACKAGES) {
      await esbuild.build({
        entryPoints: [path.join(ROOT, lazy.loader)],
        outfile: path.join(out, `probe-${lazy.file}`),
        bundle: true,
        platform: 'node',
        format: 'cjs',
        logLevel: 'silent',
        plugins: [script.lazyFiles],
      });
    }
  });

  after(() => fs.rmSync(out, { recursive: true, force: true }));

  // Each bundle's own re-export of the vscode module (esbuild.js vscodeOnce): it holds no state of
  // its own (its getters read the one vscode module), so a copy per bundle is not a second anything.
  const isVscodeOnce = (input: string) => input === 'vscode-once:vscode';
  const inputsOf = (name: string) =>
    Object.keys((JSON.parse(fs.readFileSync(path.join(out, `meta-${name}.json`), 'utf8')) as Metafile).inputs);

  it('puts no module in both extension.js and undici.js, and no undici in extension.js', () => {
    const main = inputsOf('extension');
    const lazy = new Set(inputsOf('undici'));
    assert.ok(
      main.some((f) => f.startsWith('src/')),
      'the metafile lists the start bundle',
    );
    assert.ok(
      [...lazy].some((f) => f.includes('node_modules/undici/')),
      'undici.js holds undici',
    );
    assert.deepEqual(
      main.filter((f) => lazy.has(f)),
      [],
    );
    assert.deepEqual(
      main.filter((f) => f.includes('node_modules/undici/')),
      [],
    );
    assert.deepEqual(
      [...lazy].filter((f) => f.startsWith('src/') && f !== 'src/api/network/undiciParts.ts'),
      [],
    );
  });

  it('puts yazl and jsdiff in files of their own, with nothing of ours and nothing of extension.js', () => {
    const main = inputsOf('extension');
    for (const lazy of LAZY_PACKAGES) {
      const inputs = inputsOf(lazy.file.replace(/\.js$/, ''));
      assert.ok(
        inputs.some((f) => f.includes(lazy.pkg)),
        `${lazy.file} holds ${lazy.pkg}`,
      );
      assert.deepEqual(
        main.filter((f) => f.includes(lazy.pkg)),
        [],
        `${lazy.pkg} is not in extension.js`,
      );
      assert.deepEqual(
        inputs.filter((f) => main.includes(f)),
        [],
        `${lazy.file} shares no module with extension.js`,
      );
      assert.deepEqual(
        inputs.filter((f) => f.startsWith('src/')),
        [],
        `${lazy.file} holds nothing of src`,
      );
    }
  });

  it('puts Review Changes in review.js, which takes every module it shares with extension.js from extension.js', () => {
    const main = inputsOf('extension');
    const review = inputsOf('review');
    const own = review.filter((f) => !f.startsWith('shared:') && !isVscodeOnce(f));
    const taken = review.filter((f) => f.startsWith('shared:')).map((f) => f.slice('shared:'.length));
    assert.ok(
      own.includes('src/reviewUi/reviewCommands.ts') && own.includes('src/review/changeSet.ts'),
      'review.js holds the review',
    );
    assert.deepEqual(
      main.filter((f) => f.startsWith('src/review/') || f === 'src/reviewUi/reviewCommands.ts'),
      [],
      'extension.js holds none of it',
    );
    assert.deepEqual(
      own.filter((f) => main.includes(f)),
      [],
      'no module is in both bundles',
    );
    assert.ok(taken.includes('src/reviewUi/reviewContent.ts'), 'the class both use comes from extension.js');
    assert.deepEqual(
      taken.filter((f) => !main.includes(f)),
      [],
      'what review.js takes, extension.js has',
    );
  });

  it('puts the run panel and the run log in runpanel.js, which takes every module it shares with extension.js from extension.js', () => {
    const main = inputsOf('extension');
    const panel = inputsOf('runpanel');
    const own = panel.filter((f) => !f.startsWith('shared:') && !isVscodeOnce(f));
    const taken = panel.filter((f) => f.startsWith('shared:')).map((f) => f.slice('shared:'.length));
    for (const file of [
      'src/runPanel/runPanelManager.ts',
      'src/runPanel/runPanel.ts',
      'src/runPanel/runSession.ts',
      'src/runLog/runLog.ts',
    ]) {
      assert.ok(own.includes(file), `runpanel.js holds ${file}`);
    }
    assert.deepEqual(
      main.filter((f) => f.startsWith('src/runLog/') || own.includes(f)),
      [],
      'extension.js holds none of it, and no module is in both bundles',
    );
    assert.ok(
      main.includes('src/runPanel/runPanelLoader.ts'),
      'the facade that registers the serializer is in extension.js',
    );
    assert.ok(
      taken.includes('src/runPanel/protocol.ts') && taken.includes('src/api/errors.ts'),
      'what other modules of extension.js use comes from extension.js',
    );
    assert.deepEqual(
      taken.filter((f) => !main.includes(f)),
      [],
      'what runpanel.js takes, extension.js has',
    );
  });

  it('puts the chat handler in chat.js, the language model tools in tools.js and the project commands in projects.js, each taking every module it shares with extension.js from extension.js', () => {
    const main = inputsOf('extension');
    const moved = {
      chat: ['src/chat/chatHandler.ts', 'src/chat/chatText.ts'],
      tools: [
        'src/languageModelTools/toolHandlers.ts',
        'src/languageModelTools/toolSpecs.ts',
        'src/languageModelTools/toolResult.ts',
      ],
      projects: ['src/projects/projectCommands.ts'],
    };
    for (const [name, files] of Object.entries(moved)) {
      const inputs = inputsOf(name);
      const own = inputs.filter((f) => !f.startsWith('shared:') && !isVscodeOnce(f));
      const taken = inputs.filter((f) => f.startsWith('shared:')).map((f) => f.slice('shared:'.length));
      for (const file of files) {
        assert.ok(own.includes(file), `${name}.js holds ${file}`);
      }
      assert.deepEqual(
        main.filter((f) => files.includes(f) || own.includes(f)),
        [],
        `extension.js holds none of ${name}.js, and no module is in both bundles`,
      );
      assert.deepEqual(
        taken.filter((f) => !main.includes(f)),
        [],
        `what ${name}.js takes, extension.js has`,
      );
    }
    assert.ok(
      ['src/chat/chatLoader.ts', 'src/languageModelTools/toolsLoader.ts', 'src/projects/projectLoader.ts'].every((f) =>
        main.includes(f),
      ),
      'the loaders that register the participant, the tools and the project commands are in extension.js',
    );
  });

  it('puts no module of ours in two lazy bundles', () => {
    const own = (file: string) => inputsOf(file.replace(/\.js$/, '')).filter((f) => f.startsWith('src/'));
    for (const [i, a] of SHARING.entries()) {
      const first = new Set(own(a.file));
      for (const b of SHARING.slice(i + 1)) {
        assert.deepEqual(
          own(b.file).filter((f) => first.has(f)),
          [],
          `in ${a.file} and ${b.file}`,
        );
      }
    }
  });

  for (const lazy of SHARING) {
    it(`loads ${lazy.file} beside extension.js, every shared module there with its exports`, () => {
      const res = runNode(REQUIRE_SHARING, {
        VSCODE_STUB: path.join(out, 'vscode-stub.js'),
        BUNDLE: path.join(out, 'extension.js'),
        FILE: lazy.file,
        MEMBER: lazy.member,
      });
      const takenBy = (file: string) =>
        inputsOf(file.replace(/\.js$/, ''))
          .filter((f) => f.startsWith('shared:'))
          .map((f) => f.slice('shared:'.length));
      const taken = [...new Set(takenBy(lazy.file))].sort();
      const sharedKeys = [...new Set(SHARING.flatMap((s) => takenBy(s.file)))].sort();
      assert.deepEqual(res, { member: 'function', asked: taken, missing: [], sharedKeys });
    });
  }

  it('copies the vscode module once per bundle, not once per importing file', () => {
    const res = runNode(COUNT_VSCODE_COPIES, {
      VSCODE_STUB: path.join(out, 'vscode-stub.js'),
      BUNDLE: path.join(out, 'extension.js'),
      FILES: JSON.stringify(SHARING.map((s) => s.file)),
    });
    assert.ok(inputsOf('extension').filter((f) => f.startsWith('src/')).length > 50, 'extension.js has many modules');
    assert.deepEqual(res, { 'extension.js': 1, ...Object.fromEntries(SHARING.map((s) => [s.file, 1])) });
  });

  it('loads none of the lazy files when extension.js is required', () => {
    const res = runNode(REQUIRE_EXTENSION, {
      VSCODE_STUB: path.join(out, 'vscode-stub.js'),
      BUNDLE: path.join(out, 'extension.js'),
    });
    assert.deepEqual(res, { activate: 'function', lazyLoaded: [] });
  });

  for (const lazy of LAZY_PACKAGES) {
    const run = () =>
      runNode(loadThroughProbe(lazy.file), {
        PROBE: path.join(out, `probe-${lazy.file}`),
        LOAD: lazy.load,
        MEMBER: lazy.member,
      });

    it(`loads ${lazy.file} beside the bundle at the first ${lazy.load}()`, () => {
      assert.deepEqual(run(), { before: false, after: true, member: 'function' });
    });

    it(`says the extension is incomplete when ${lazy.file} is missing`, () => {
      fs.renameSync(path.join(out, lazy.file), path.join(out, `${lazy.file}.away`));
      try {
        const res = run();
        assert.equal(res.member, undefined);
        assert.match(
          String(res.error),
          new RegExp(
            `The Agent Runtime extension is incomplete: dist/${lazy.file.replace('.', '\\.')} is missing or broken .*Reinstall the extension\\.`,
            's',
          ),
        );
      } finally {
        fs.renameSync(path.join(out, `${lazy.file}.away`), path.join(out, lazy.file));
      }
    });
  }

  const restore = () =>
    runNode(RESTORE_THROUGH_PROBE, {
      VSCODE_STUB: path.join(out, 'vscode-stub.js'),
      RECORDING_STUB: path.join(out, 'vscode-recording-stub.js'),
      PROBE: path.join(out, 'probe-runpanel.js'),
    });

  it('registers the run panel serializer without runpanel.js and loads it at the first restored panel', () => {
    const res = restore();
    assert.deepEqual(
      { ...res, shown: undefined },
      {
        viewType: 'agentRuntime.run',
        before: false,
        after: true,
        restored: 'resolved',
        disposed: true,
        opened: 'returned',
        shown: undefined,
        logged: ['info: Run panel: not restoring a panel (no saved state)'],
      },
    );
    assert.deepEqual(
      res.shown,
      ['"not-a-run" is not a run id (a run id starts with run_).'],
      'open() reaches the loaded manager',
    );
  });

  it('says the extension is incomplete when runpanel.js is missing, and leaves no blank restored panel', () => {
    fs.renameSync(path.join(out, 'runpanel.js'), path.join(out, 'runpanel.js.away'));
    try {
      const res = restore();
      // Said as a command's guard says it (describeErrorForUser: "Unexpected error: ..."), with the fix.
      const incomplete =
        /The Agent Runtime extension is incomplete: dist\/runpanel\.js is missing or broken .*Reinstall the extension\.$/s;
      assert.equal(res.restored, 'resolved', 'the serializer answers VS Code');
      assert.equal(res.disposed, true);
      assert.equal((res.shown as string[]).length, 1);
      assert.match((res.shown as string[])[0], incomplete);
      assert.match(
        (res.logged as string[])[0],
        /^error: Run panel: cannot restore a panel: .*The Agent Runtime extension is incomplete: dist\/runpanel\.js/,
      );
      // A command's guard reports what open() throws.
      assert.match(
        String(res.opened),
        /^threw: The Agent Runtime extension is incomplete: dist\/runpanel\.js is missing or broken/,
      );
    } finally {
      fs.renameSync(path.join(out, 'runpanel.js.away'), path.join(out, 'runpanel.js'));
    }
  });

  const invokeTool = () =>
    runNode(INVOKE_TOOL_THROUGH_PROBE, {
      VSCODE_STUB: path.join(out, 'vscode-stub.js'),
      RECORDING_STUB: path.join(out, 'vscode-recording-stub.js'),
      PROBE: path.join(out, 'probe-tools.js'),
    });
  const TOOL_NAMES = [
    'agentRuntime_createTask',
    'agentRuntime_getRun',
    'agentRuntime_listTasks',
    'agentRuntime_listArtifacts',
    'agentRuntime_readArtifact',
    'agentRuntime_cancelRun',
    'agentRuntime_resumeRun',
    'agentRuntime_forkRun',
    'agentRuntime_searchMemory',
  ];

  it('registers the tools without tools.js and loads it at the first invocation', () => {
    const res = invokeTool();
    assert.deepEqual(
      { ...res, invoked: undefined },
      {
        named: TOOL_NAMES,
        handles: TOOL_NAMES,
        before: false,
        after: true,
        invoked: undefined,
        logged: ['error: Tool agentRuntime_getRun failed: the spec ran'],
      },
    );
    // The tool's own answer to the model when its spec throws (toolHandlers.ts toolOf).
    assert.match(
      String(res.invoked),
      /^The tool failed inside VS Code; nothing more was done\..*"error":"the spec ran"/s,
    );
  });

  it('says the extension is incomplete when tools.js is missing, and still registers the tools', () => {
    fs.renameSync(path.join(out, 'tools.js'), path.join(out, 'tools.js.away'));
    try {
      const res = invokeTool();
      assert.deepEqual(res.named, TOOL_NAMES);
      assert.match(
        String(res.invoked),
        /^rejected: The Agent Runtime extension is incomplete: dist\/tools\.js is missing or broken .*Reinstall the extension\.$/s,
      );
      assert.match(
        (res.logged as string[])[0],
        /^error: Tool agentRuntime_getRun: The Agent Runtime extension is incomplete: dist\/tools\.js/,
      );
    } finally {
      fs.renameSync(path.join(out, 'tools.js.away'), path.join(out, 'tools.js'));
    }
  });

  const chatRequest = () =>
    runNode(CHAT_THROUGH_PROBE, {
      VSCODE_STUB: path.join(out, 'vscode-stub.js'),
      RECORDING_STUB: path.join(out, 'vscode-recording-stub.js'),
      PROBE: path.join(out, 'probe-chat.js'),
    });

  it('registers the chat participant without chat.js and loads it at the first request', () => {
    assert.deepEqual(chatRequest(), {
      id: 'agentRuntime.chat',
      before: false,
      after: true,
      answered: { metadata: { command: 'help' } },
      buttons: ['agentRuntime.signIn'],
      logged: [],
    });
  });

  it('says the extension is incomplete when chat.js is missing, and still registers the participant', () => {
    fs.renameSync(path.join(out, 'chat.js'), path.join(out, 'chat.js.away'));
    try {
      const res = chatRequest();
      assert.equal(res.id, 'agentRuntime.chat');
      assert.match(
        String(res.answered),
        /^rejected: The Agent Runtime extension is incomplete: dist\/chat\.js is missing or broken .*Reinstall the extension\.$/s,
      );
    } finally {
      fs.renameSync(path.join(out, 'chat.js.away'), path.join(out, 'chat.js'));
    }
  });

  const projectCommand = () =>
    runNode(PROJECT_COMMAND_THROUGH_PROBE, {
      VSCODE_STUB: path.join(out, 'vscode-stub.js'),
      RECORDING_STUB: path.join(out, 'vscode-recording-stub.js'),
      PROBE: path.join(out, 'probe-projects.js'),
    });
  const PROJECT_COMMANDS = [
    'agentRuntime.toggleProjectTasks',
    'agentRuntime.createProjectForRepository',
    'agentRuntime.newTaskInProject',
  ];

  it('registers the project commands without projects.js and loads it at the first of them', () => {
    assert.deepEqual(projectCommand(), {
      ids: PROJECT_COMMANDS,
      before: false,
      after: true,
      toggled: 'done',
      scopes: ['all tasks'],
    });
  });

  it("says the extension is incomplete when projects.js is missing, through the command's guard", () => {
    fs.renameSync(path.join(out, 'projects.js'), path.join(out, 'projects.js.away'));
    try {
      const res = projectCommand();
      assert.deepEqual(res.ids, PROJECT_COMMANDS);
      assert.deepEqual(res.scopes, []);
      assert.match(
        String(res.toggled),
        /^Show the project's tasks: The Agent Runtime extension is incomplete: dist\/projects\.js is missing or broken .*Reinstall the extension\.$/s,
      );
    } finally {
      fs.renameSync(path.join(out, 'projects.js.away'), path.join(out, 'projects.js'));
    }
  });

  it('loads undici.js beside the bundle at the first request, which then succeeds', () => {
    const res = runNode(REQUEST_THROUGH_PROBE, { PROBE: path.join(out, 'probe.js') });
    assert.deepEqual(res, { before: false, after: true, status: 200, body: 'pong' });
  });

  it('says the extension is incomplete when undici.js is missing', () => {
    fs.rmSync(path.join(out, script.UNDICI_FILE));
    const res = runNode(REQUEST_THROUGH_PROBE, { PROBE: path.join(out, 'probe.js') });
    assert.equal(res.status, undefined);
    assert.match(
      String(res.error),
      /The Agent Runtime extension is incomplete: dist\/undici\.js is missing or broken .*Reinstall the extension\./s,
    );
    assert.equal(
      res.code,
      'agent_runtime_incomplete',
      'marked, so the API layer does not take it for a network failure (INCOMPLETE_INSTALL)',
    );
  });
});
