// The sandbox: `npm run sandbox` starts the reference runtime on 127.0.0.1:8787 with example data.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startRuntime } from './index';
import { SEEDED_APPROVAL_TIMEOUT_MS, seedSandbox } from './sandboxSeed';

interface CliOptions {
  port: number;
  dataDir: string;
  paceMs: number;
  apiKey: string;
  adminKey: string;
  reset: boolean;
  quiet: boolean;
  hostile: boolean;
  approvalTimeoutMs?: number;
}

const USAGE = `Usage: node out/test/runtime/cli.js [options]
  --port <n>          port on 127.0.0.1 (default 8787; 0 = any free port)
  --data-dir <path>   where records, event logs and encrypted blobs live (default <repo>/.cache/sandbox-data)
  --pace <ms>         delay between the built-in agent's events (default 400)
  --key <key>         API key (default $AGENT_RUNTIME_SANDBOX_KEY or 'sandbox-key')
  --admin-key <key>   key for /__admin/* (default 'sandbox-admin-key')
  --approval-timeout <ms>  how long an approval waits for a decision (default 300000 = 5 minutes)
  --reset             delete the data directory first
  --quiet             do not print one line per request
  --hostile           answer with the nastiest values of each kind (README "Hostile mode")
`;

function repoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) {
      return dir;
    }
    if (path.dirname(dir) === dir) {
      return process.cwd();
    }
  }
}

function parseArgs(argv: string[]): CliOptions {
  const options: CliOptions = {
    port: 8787,
    dataDir: path.join(repoRoot(), '.cache', 'sandbox-data'),
    paceMs: 400,
    apiKey: process.env.AGENT_RUNTIME_SANDBOX_KEY || 'sandbox-key',
    adminKey: 'sandbox-admin-key',
    reset: false,
    quiet: false,
    hostile: false,
  };
  const value = (i: number, flag: string): string => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) {
      throw new Error(`${flag} needs a value`);
    }
    return v;
  };
  const integer = (text: string, flag: string): number => {
    if (!/^\d+$/.test(text)) {
      throw new Error(`${flag} needs a non-negative integer`);
    }
    return Number(text);
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    switch (flag) {
      case '--port':
        options.port = integer(value(i++, flag), flag);
        break;
      case '--data-dir':
        options.dataDir = path.resolve(value(i++, flag));
        break;
      case '--pace':
        options.paceMs = integer(value(i++, flag), flag);
        break;
      case '--key':
        options.apiKey = value(i++, flag);
        break;
      case '--admin-key':
        options.adminKey = value(i++, flag);
        break;
      case '--approval-timeout':
        options.approvalTimeoutMs = integer(value(i++, flag), flag);
        break;
      case '--reset':
        options.reset = true;
        break;
      case '--quiet':
        options.quiet = true;
        break;
      case '--hostile':
        options.hostile = true;
        break;
      case '--help':
      case '-h':
        process.stdout.write(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${flag}`);
    }
  }
  return options;
}

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options.reset) {
    fs.rmSync(options.dataDir, { recursive: true, force: true });
  }
  fs.mkdirSync(options.dataDir, { recursive: true });

  const seededMarker = path.join(options.dataDir, 'sandbox-seeded.json');
  if (!fs.existsSync(seededMarker)) {
    // Seed at full speed on a private port, so the example task is already finished at start.
    const seeder = await startRuntime({
      dataDir: options.dataDir,
      apiKeys: [options.apiKey],
      adminKey: options.adminKey,
      approvalTimeoutMs: SEEDED_APPROVAL_TIMEOUT_MS,
    });
    try {
      const seeded = await seedSandbox(seeder.baseUrl, options.apiKey);
      fs.writeFileSync(seededMarker, JSON.stringify(seeded));
    } finally {
      await seeder.close();
    }
  }

  const runtime = await startRuntime({
    port: options.port,
    dataDir: options.dataDir,
    apiKeys: [options.apiKey],
    adminKey: options.adminKey,
    eventDelayMs: options.paceMs,
    hostile: options.hostile,
    approvalTimeoutMs: options.approvalTimeoutMs,
    log: options.quiet ? undefined : (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write(
    [
      `Agent Runtime sandbox listening on ${runtime.baseUrl}`,
      `  Base URL:  ${runtime.baseUrl}`,
      `  API key:   ${runtime.apiKey}`,
      `  Admin key: ${runtime.adminKey}`,
      `  Data dir:  ${runtime.dataDir}`,
      ...(options.hostile ? ['  Hostile mode: on (every answer is poisoned; POST /__admin/hostile to tune it)'] : []),
      `Try: curl -H "Authorization: Bearer ${runtime.apiKey}" ${runtime.baseUrl}/v1/tasks`,
      'Stop with Ctrl+C.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    process.stdout.write(`${signal}: stopping the sandbox\n`);
    runtime.close().then(
      () => process.exit(0),
      (err: Error) => {
        process.stderr.write(`could not stop cleanly: ${err.message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: Error) => {
  process.stderr.write(`sandbox failed to start: ${err.message}\n`);
  process.exit(1);
});
