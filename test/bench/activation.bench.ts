// Benchmark "loading the extension", the part only a real VS Code can show: the
// time from the activation event to the Tasks view's first rows, in code-server against the
// reference runtime, beside a floor peer in the same run: a minimal extension whose one tree view
// fetches the same first page of tasks with Node's own fetch and shows it (what any extension pays
// for being activated and drawing a tree, with no code of its own to load).
//
// How: the production bundle is built into a temporary extension folder (what a .vsix holds), and
// each round opens a fresh code-server window on it (a new window is a new extension host, so
// every round is a cold activation of the extension; code-server itself stays warm). Three clocks:
// - "activation event -> first rows": the extension host's log line for the activation
//   (`ExtensionService#_doActivateExtension <id>`) to the extension's own log line
//   "Activation: the tasks view had its first N rows" (src/common/activationTiming.ts); both are
//   timestamped by the same process, so this includes loading the bundle.
// - "activate() -> first rows": the figure inside that line (from activate()'s first statement).
// - "window opened -> row on screen": from page.goto to the row in the DOM (the user's wait,
//   mostly the workbench's own start).
// Run: `npm run bench -- activation` (about 2 min per VS Code; prints SKIPPED without Chromium).
// It measures on every tested VS Code (test/e2e/vscode-versions.json), one after the other;
// E2E_VSCODE=floor (or newest, or a version) measures one. ACTIVATION_ROUNDS (5) sets the rounds
// per extension.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { ACTIVATION_LINE } from '../../src/common/activationTiming';
import { chromiumExecutable, launchChromium, newWorkbenchPage } from '../e2e/harness/browser';
import { Cleanup } from '../e2e/harness/cleanup';
import { type CodeServer, startCodeServer } from '../e2e/harness/codeServer';
import { ensureCodeServer } from '../e2e/harness/install';
import {
  describeTarget,
  repoRoot,
  VSCODE_ENV,
  type VsCodeTarget,
  vscodeTarget,
  vscodeTargets,
} from '../e2e/harness/paths';
import { createRunFolder, type RunFolder } from '../e2e/harness/runFolder';
import { Workbench } from '../e2e/harness/workbench';
import { UI } from '../e2e/scenarios/ui';
import { startRuntime } from '../runtime';

const ROUNDS = Number(process.env.ACTIVATION_ROUNDS ?? 5);
const TARGET_MS = 300;
const TASKS = 5;
const OBJECTIVE = 'Activation benchmark task';

/** Copies what the .vsix ships (manifest, strings, media) and builds the production bundle beside it. */
function buildExtensionFolder(dir: string): void {
  const root = repoRoot();
  for (const file of fs.readdirSync(root)) {
    if (/^package(\.nls(\.[a-z-]+)?)?\.json$/.test(file)) {
      fs.copyFileSync(path.join(root, file), path.join(dir, file));
    }
  }
  for (const sub of ['media', 'l10n']) {
    fs.cpSync(path.join(root, sub), path.join(dir, sub), { recursive: true });
  }
  const built = spawnSync(
    process.execPath,
    [path.join(root, 'esbuild.js'), '--production', `--outdir=${path.join(dir, 'dist')}`],
    { cwd: root, stdio: 'inherit' },
  );
  if (built.status !== 0) {
    throw new Error('the production build failed');
  }
}

/** The floor peer: one view container, one tree, the first page of tasks through Node's fetch. */
function writeFloorExtension(dir: string, iconFrom: string): void {
  fs.copyFileSync(iconFrom, path.join(dir, 'icon.svg'));
  const manifest = {
    name: 'activation-floor',
    publisher: 'bench',
    version: '0.0.1',
    engines: { vscode: '^1.90.0' },
    main: './extension.js',
    contributes: {
      viewsContainers: { activitybar: [{ id: 'activationFloor', title: 'Activation Floor', icon: 'icon.svg' }] },
      // Two views, as ours has: a container with one view folds the view's name into its title.
      views: {
        activationFloor: [
          { id: 'activationFloor.tasks', name: 'Floor Tasks' },
          { id: 'activationFloor.other', name: 'Floor Other' },
        ],
      },
    },
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, undefined, 2));
  fs.writeFileSync(
    path.join(dir, 'extension.js'),
    `const vscode = require('vscode');
exports.activate = (context) => {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Activation Floor', { log: true });
  let reported = false;
  context.subscriptions.push(log, vscode.window.registerTreeDataProvider('activationFloor.tasks', {
    getTreeItem: (task) => new vscode.TreeItem(task.objective),
    async getChildren(task) {
      if (task) return [];
      const res = await fetch(process.env.FLOOR_BASE_URL + '/v1/tasks?limit=20', { headers: { authorization: 'Bearer ' + process.env.AGENT_RUNTIME_API_KEY } });
      const page = await res.json();
      if (!reported && page.data.length > 0) {
        reported = true;
        log.info('Activation: the tasks view had its first ' + page.data.length + ' rows ' + Math.round(performance.now() - started) + ' ms after activation began');
      }
      return page.data;
    },
  }));
};
`,
  );
}

/** Every file under `dir` (recursively) whose name is `name`. */
function findFiles(dir: string, name: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      found.push(...findFiles(full, name));
    } else if (entry.name === name) {
      found.push(full);
    }
  }
  return found;
}

/** "2026-11-23 15:50:01.123 [info] ..." -> ms since the epoch (local time, as VS Code writes it). */
function stampOf(line: string): number | undefined {
  const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3})/.exec(line);
  if (!m) {
    return undefined;
  }
  const [y, mo, d, h, mi, s, ms] = m.slice(1).map(Number);
  return new Date(y, mo - 1, d, h, mi, s, ms).getTime();
}

interface Round {
  /** Extension host log: activation event -> the extension's first-rows line. */
  eventToRows: number;
  /** Inside the extension: activate() -> first rows. */
  activateToRows: number;
  /** page.goto -> the row in the DOM. */
  windowToRow: number;
  /** The extension's own steps, as its line says them. */
  steps?: string;
}

interface Subject {
  label: string;
  extensionId: string;
  folder: string;
  container: string;
  view: string;
  logName: string;
}

/** One cold window: opens the workbench on the subject, waits for its first task row, reads the logs. */
async function oneRound(server: CodeServer, run: RunFolder, browser: Browser, subject: Subject): Promise<Round> {
  const logsDir = path.join(run.userDataDir, 'logs');
  const before = new Set(fs.existsSync(logsDir) ? findFiles(logsDir, `${subject.logName}.log`) : []);
  const { context, page } = await newWorkbenchPage(browser);
  try {
    const workbench = new Workbench(page, 60_000);
    const payload = [['extensionDevelopmentPath', server.remoteUri(subject.folder)]];
    const opened = Date.now();
    await workbench.open(server.workbenchUrl({ payload: JSON.stringify(payload) }));
    await workbench.openContainer(subject.container);
    await workbench.treeRow(subject.view, OBJECTIVE);
    const windowToRow = Date.now() - opened;
    // The log is written a moment after the row can be drawn: wait for the new file's line.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const fresh = findFiles(logsDir, `${subject.logName}.log`).filter((f) => !before.has(f));
      for (const file of fresh) {
        const rowsLine = fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .find((l) => ACTIVATION_LINE.test(l));
        if (!rowsLine) {
          continue;
        }
        // The extension host's log (code-server: remoteexthost.log) sits beside the extension's log folder.
        const exthostLog = fs.readdirSync(path.dirname(path.dirname(file))).find((f) => /exthost\.log$/.test(f));
        const activationLine = exthostLog
          ? fs
              .readFileSync(path.join(path.dirname(path.dirname(file)), exthostLog), 'utf8')
              .split('\n')
              .find((l) => l.includes('_doActivateExtension') && l.toLowerCase().includes(subject.extensionId))
          : undefined;
        if (!activationLine) {
          throw new Error(
            `no activation line for ${subject.extensionId} in ${exthostLog ?? '(no exthost.log near ' + file + ')'}`,
          );
        }
        const rowsAt = stampOf(rowsLine);
        const activatedAt = stampOf(activationLine);
        if (rowsAt === undefined || activatedAt === undefined) {
          throw new Error(`unreadable log stamps: ${activationLine} / ${rowsLine}`);
        }
        const said = ACTIVATION_LINE.exec(rowsLine);
        return { eventToRows: rowsAt - activatedAt, activateToRows: Number(said?.[3]), windowToRow, steps: said?.[4] };
      }
      if (Date.now() > deadline) {
        throw new Error(`no "Activation:" line in a new ${subject.logName}.log under ${logsDir}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (err) {
    // Say why a window did not get there: the extension host's log names a manifest or load error.
    const exthost = fs.existsSync(logsDir) ? findFiles(logsDir, 'remoteexthost.log') : [];
    const said = exthost
      .flatMap((f) => fs.readFileSync(f, 'utf8').split('\n'))
      .filter((l) => /error|warn/i.test(l) || l.toLowerCase().includes(subject.extensionId));
    throw new Error(
      `${subject.label}: ${err instanceof Error ? err.message : String(err)}\n${said.slice(-15).join('\n')}`,
    );
  } finally {
    await context.close();
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : Math.round((s[s.length / 2 - 1] + s[s.length / 2]) / 2);
}

function row(what: string, pick: (r: Round) => number, ours: Round[], floor: Round[]): string {
  const cell = (rs: Round[]) => `${median(rs.map(pick))} ms (${rs.map(pick).join(', ')})`;
  return `| ${what} | ${cell(ours)} | ${cell(floor)} | ${median(ours.map(pick)) - median(floor.map(pick))} ms |`;
}

async function measure(): Promise<void> {
  try {
    chromiumExecutable();
  } catch (err) {
    console.log(`SKIPPED activation: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  const targets = process.env[VSCODE_ENV] ? [vscodeTarget()] : vscodeTargets();
  for (const target of targets) {
    await measureOn(target);
  }
}

async function measureOn(target: VsCodeTarget): Promise<void> {
  console.log(`\n--- ${describeTarget(target)} ---`);
  ensureCodeServer(undefined, target);
  const cleanup = new Cleanup();
  try {
    const rt = await startRuntime();
    cleanup.add('runtime', () => rt.close());
    for (let i = 1; i <= TASKS; i++) {
      await rt.createSyntheticRun({ events: 3, terminal: 'completed', taskObjective: `${OBJECTIVE} ${i}` });
    }

    const run = createRunFolder({ name: 'activation-bench', settings: { 'agentRuntime.baseUrl': rt.baseUrl } });
    cleanup.add('run folder', () => run.remove());
    const ours = path.join(run.root, 'agent-runtime-extension');
    const floorDir = path.join(run.root, 'activation-floor');
    fs.mkdirSync(ours);
    fs.mkdirSync(floorDir);
    buildExtensionFolder(ours);
    writeFloorExtension(floorDir, path.join(repoRoot(), 'media', 'activity.svg'));
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as {
      publisher: string;
      name: string;
    };

    const server = await startCodeServer(run, {
      target,
      env: { AGENT_RUNTIME_API_KEY: rt.apiKey, FLOOR_BASE_URL: rt.baseUrl },
      developmentPayload: true,
    });
    cleanup.add('code-server', () => server.stop());
    const browser = await launchChromium(run.home);
    cleanup.add('chromium', () => browser.close());

    const subjects: Subject[] = [
      {
        label: 'Agent Runtime',
        extensionId: `${manifest.publisher}.${manifest.name}`.toLowerCase(),
        folder: ours,
        container: UI.container,
        view: UI.tasksView,
        logName: 'Agent Runtime',
      },
      {
        label: 'floor',
        extensionId: 'bench.activation-floor',
        folder: floorDir,
        container: 'Activation Floor',
        view: 'Floor Tasks',
        logName: 'Activation Floor',
      },
    ];
    // One unmeasured window first: code-server's own first start (caches, the workbench's files).
    await oneRound(server, run, browser, subjects[1]);
    const results = new Map<string, Round[]>(subjects.map((s) => [s.label, []]));
    // Alternate the two so that a change in the machine's load colours both alike.
    for (let i = 0; i < ROUNDS; i++) {
      for (const subject of subjects) {
        results.get(subject.label)?.push(await oneRound(server, run, browser, subject));
      }
    }
    const mine = results.get('Agent Runtime') ?? [];
    const floor = results.get('floor') ?? [];
    console.log(
      `Activation in ${describeTarget(target)}, ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; ${ROUNDS} cold windows each, alternating; median (all rounds).\n`,
    );
    console.log('| | Agent Runtime (production bundle) | floor: minimal extension, Node fetch | difference |');
    console.log('|---|---|---|---|');
    console.log(row('activation event -> first task rows (extension host log)', (r) => r.eventToRows, mine, floor));
    console.log(row('activate() -> first task rows (inside the extension)', (r) => r.activateToRows, mine, floor));
    console.log(row('window opened -> task row on screen', (r) => r.windowToRow, mine, floor));
    console.log(`\nThe extension's steps from activate(), each round: ${mine.map((r) => r.steps ?? '-').join('; ')}`);
    const m = median(mine.map((r) => r.eventToRows));
    console.log(
      `\nTarget: activation to first tree data <= ${TARGET_MS} ms: ${m <= TARGET_MS ? 'met' : 'NOT met'} (${m} ms).`,
    );
  } finally {
    await cleanup.run();
  }
}

measure().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
