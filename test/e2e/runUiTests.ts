// `npm run test:e2e`: the UI end-to-end suite. Installs the packaged .vsix into a fresh
// extensions folder, then runs each scenario against its own reference runtime, its own
// code-server (fresh user data) and a fresh browser context. One PASS/FAIL line per scenario,
// screenshots, and a final `N passed, N failed` line; non-zero exit on any failure.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Browser } from 'playwright-core';
import { startRuntime } from '../runtime';
import { chromiumExecutable, launchChromium } from './harness/browser';
import { Cleanup, exitOnSignals, withTimeout } from './harness/cleanup';
import { installExtension } from './harness/codeServer';
import { fixtureExtensionId, packageFixtureExtension } from './harness/fixtureExtensions';
import { ensureCodeServer } from './harness/install';
import { chromiumPid, formatMemory, treeMemory } from './harness/memory';
import { describeTarget, extensionId, type VsCodeTarget, vscodeTarget, vsixPath } from './harness/paths';
import { addSecret, addSecretsFromEnv, redact } from './harness/redact';
import { createRunFolder, type RunFolder } from './harness/runFolder';
import { Screenshots } from './harness/screenshots';
import { openSession, type Session } from './harness/session';
import { planScenarios, selectScenarios } from './scenarios';
import { type Scenario, type ScenarioContext } from './scenarios/types';
import { UI } from './scenarios/ui';

const SCENARIO_TIMEOUT_MS = Number(process.env.E2E_SCENARIO_TIMEOUT_MS ?? 180_000);
const EVENT_DELAY_MS = Number(process.env.E2E_EVENT_DELAY_MS ?? 100);

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const ctxLog = (line: string): void => console.log(`    ${redact(line)}`);
const message = (err: unknown): string => redact(err instanceof Error ? (err.stack ?? err.message) : String(err));

let memoryReport: string | undefined;

async function runScenario(scenario: Scenario, browser: Browser, base: RunFolder, target: VsCodeTarget): Promise<void> {
  const cleanup = new Cleanup();
  const shots = new Screenshots(scenario.id);
  let session: Session | undefined;
  let failed = true;
  try {
    const runtimeLog = fs.createWriteStream(path.join(base.root, `${scenario.id}-runtime.log`));
    cleanup.add('runtime log', () => new Promise<void>((resolve) => runtimeLog.end(resolve)));
    const runtimeLines: string[] = [];
    const runtime = await startRuntime({
      eventDelayMs: EVENT_DELAY_MS,
      ...scenario.runtime,
      log: (line) => {
        const clean = redact(line);
        runtimeLines.push(clean);
        runtimeLog.write(`${clean}\n`);
      },
    });
    cleanup.add('runtime', () => runtime.close());
    addSecret(runtime.apiKey);
    addSecret(runtime.adminKey);

    // Fixture extensions go into a copy of the base extensions folder, for this scenario alone.
    let extensionsFrom = base.extensionsDir;
    if (scenario.fixtureExtensions?.length) {
      const withFixtures = createRunFolder({ name: `${scenario.id}-extensions`, extensionsFrom });
      cleanup.add('fixture extensions folder', () => withFixtures.remove());
      for (const name of scenario.fixtureExtensions) {
        const vsix = packageFixtureExtension(name, withFixtures.root);
        ctxLog(`installed ${await installExtension(withFixtures, vsix, fixtureExtensionId(name), target)} (fixture)`);
      }
      extensionsFrom = withFixtures.extensionsDir;
    }

    const auth = scenario.auth ?? 'env';
    const apiKey = auth === 'env' ? runtime.apiKey : auth === 'none' ? undefined : auth.wrongKey;
    addSecret(apiKey);
    session = await openSession(browser, {
      name: scenario.id,
      files: scenario.files ?? { 'README.md': '# UI test workspace\n', 'notes.txt': 'notes for the agent\n' },
      settings: { 'agentRuntime.baseUrl': runtime.baseUrl, ...scenario.settings },
      prepareWorkspace: scenario.prepareWorkspace,
      extensionsFrom,
      env: { AGENT_RUNTIME_API_KEY: apiKey },
      locale: scenario.locale,
      target,
    });
    const opened = session;
    cleanup.add('session', () => opened.close({ keep: failed }));

    // The extension's contributions arrive a few seconds after the workbench shows: start from there.
    await opened.workbench.activityItem(UI.container).waitFor({ timeout: 60_000 });

    const ctx: ScenarioContext = {
      target,
      workbench: opened.workbench,
      page: opened.page,
      runtime,
      runtimeLog: runtimeLines,
      session: opened,
      workspace: opened.run.workspace,
      shots,
      shot: async (name) => void (await shots.take(opened.page, name)),
      log: ctxLog,
    };
    await withTimeout(scenario.run(ctx), SCENARIO_TIMEOUT_MS, `scenario ${scenario.id}`);
    await ctx.shot('end');
    memoryReport ??= `${formatMemory('code-server', treeMemory(opened.server.process.pid))}; ${formatMemory('chromium', treeMemory(chromiumPid()))}`;
    failed = false;
  } catch (err) {
    if (session) {
      await shots.take(session.page, 'failure');
      console.log(`    run folder kept for inspection: ${session.run.root} (code-server.log inside)`);
      // Offline 404s (gallery, vsda) are expected noise.
      const errors = session.consoleErrors.filter((e) => !/Failed to load resource/.test(e));
      if (errors.length) {
        console.log(`    last page errors:\n      ${errors.slice(-5).map(redact).join('\n      ')}`);
      }
    }
    console.log(`    screenshots: ${shots.dir}`);
    throw err;
  } finally {
    await cleanup.run();
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  const target = vscodeTarget();
  let scenarios: Scenario[] = [];
  const cleanup = new Cleanup();
  exitOnSignals(cleanup, (s) => console.error(`\n${s}: stopping code-server, Chromium and the runtime`));
  addSecretsFromEnv();
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  try {
    const plan = planScenarios(selectScenarios(), target);
    scenarios = plan.run;
    skipped = plan.skipped.length;
    chromiumExecutable(); // a missing browser stops here, before minutes of code-server set-up
    ensureCodeServer(undefined, target);
    console.log(`[e2e] ${describeTarget(target)}: ${scenarios.length} scenario(s)`);
    for (const { scenario, why } of plan.skipped) {
      console.log(`SKIP ${scenario.id} on VS Code ${target.vscode}: ${why}`);
    }
    const base = createRunFolder({ name: 'ui-base' });
    cleanup.add('base folder', () => base.remove());
    const installed = await installExtension(base, vsixPath(), extensionId(), target);
    console.log(`[e2e] installed ${installed} from ${path.basename(vsixPath())} (${seconds(Date.now() - started)})`);
    const browser = await launchChromium(base.home);
    cleanup.add('chromium', () => browser.close());

    for (const scenario of scenarios) {
      const t0 = Date.now();
      try {
        await runScenario(scenario, browser, base, target);
        passed++;
        console.log(`PASS ${scenario.id}: ${scenario.title} (${seconds(Date.now() - t0)})`);
      } catch (err) {
        failed++;
        console.log(
          `FAIL ${scenario.id}: ${scenario.title} (${seconds(Date.now() - t0)})\n    ${message(err).split('\n').join('\n    ')}`,
        );
      }
    }
  } catch (err) {
    console.error(`[e2e] setup failed: ${message(err)}`);
    failed = Math.max(failed, 1);
  } finally {
    await cleanup.run();
  }
  if (memoryReport) {
    console.log(`[e2e] memory during a scenario: ${memoryReport}`);
  }
  console.log(
    `[e2e] ${describeTarget(target)}: ${scenarios.length} scenario(s) in ${seconds(Date.now() - started)}; screenshots in test-results/screenshots/`,
  );
  if (skipped) {
    console.log(`[e2e] ${skipped} scenario(s) skipped on VS Code ${target.vscode} (the SKIP lines above say why)`);
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(message(err));
    process.exit(1);
  },
);
