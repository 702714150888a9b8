// Upload benchmark: a 512 MiB file sent to the reference runtime (in a child process,
// so its memory is not ours) by the API client and by `curl -F`, alternately, in the same run.
// Prints wall times side by side and the client's peak RSS and ArrayBuffers growth.
// Run: npm run bench (or node out/test/bench/upload.bench.js [--real] [--rounds N] [--mib N]).
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, open, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../src/api/client';
import { startRuntime } from '../runtime/index';

const MiB = 1024 * 1024;

interface Args {
  mib: number;
  rounds: number;
  real: boolean;
}

function parseArgs(argv: string[]): Args {
  const value = (name: string, fallback: number): number => {
    const i = argv.indexOf(name);
    return i >= 0 ? Number(argv[i + 1]) : fallback;
  };
  return { mib: value('--mib', 512), rounds: value('--rounds', 5), real: argv.includes('--real') };
}

/** Child mode: run the runtime and tell the parent where it is. */
async function serveRuntime(): Promise<void> {
  const runtime = await startRuntime({ apiKeys: ['bench-key'] });
  process.send?.({ baseUrl: runtime.baseUrl, apiKey: runtime.apiKey });
  process.on('disconnect', () => void runtime.close().then(() => process.exit(0)));
}

function startChildRuntime(): Promise<{ child: ChildProcess; baseUrl: string; apiKey: string }> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['--runtime-child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('error', reject);
    child.once('message', (m) => {
      const { baseUrl, apiKey } = m as { baseUrl: string; apiKey: string };
      resolve({ child, baseUrl, apiKey });
    });
  });
}

async function makeFile(path: string, bytes: number, real: boolean): Promise<void> {
  await writeFile(path, '');
  if (!real) {
    await truncate(path, bytes);
    return;
  }
  const block = randomBytes(4 * MiB);
  const handle = await open(path, 'w');
  try {
    for (let written = 0; written < bytes; written += block.length) {
      await handle.write(block, 0, Math.min(block.length, bytes - written));
    }
  } finally {
    await handle.close();
  }
}

interface ClientRun {
  ms: number;
  rssGrowthMiB: number;
  arrayBuffersGrowthMiB: number;
  fileId: string;
}

async function uploadWithClient(client: ApiClient, path: string): Promise<ClientRun> {
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakArrayBuffers = base.arrayBuffers;
  const sample = (): void => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakArrayBuffers = Math.max(peakArrayBuffers, m.arrayBuffers);
  };
  const timer = setInterval(sample, 20);
  const started = performance.now();
  let lastSample = 0;
  const record = await client.uploadFile(path, {
    purpose: 'dataset',
    // Sample inside the upload too: the interval alone may be starved while chunks flow.
    onProgress: (sent) => {
      if (sent - lastSample >= 16 * MiB) {
        lastSample = sent;
        sample();
      }
    },
  });
  const ms = performance.now() - started;
  clearInterval(timer);
  sample();
  return {
    ms,
    rssGrowthMiB: (peakRss - base.rss) / MiB,
    arrayBuffersGrowthMiB: (peakArrayBuffers - base.arrayBuffers) / MiB,
    fileId: record.id,
  };
}

function uploadWithCurl(baseUrl: string, apiKey: string, path: string): Promise<{ ms: number; fileId: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const curl = spawn('curl', [
      '-sS',
      '--fail-with-body',
      '-H',
      `Authorization: Bearer ${apiKey}`,
      '-H',
      `Idempotency-Key: ${randomUUID()}`,
      '-F',
      'purpose=dataset',
      '-F',
      `file=@${path}`,
      `${baseUrl}/v1/files`,
    ]);
    let out = '';
    curl.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    curl.stderr.pipe(process.stderr);
    curl.once('error', reject);
    curl.once('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) {
        return reject(new Error(`curl exited with ${code}: ${out}`));
      }
      resolve({ ms, fileId: (JSON.parse(out) as { id: string }).id });
    });
  });
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n: number, digits = 0): string => n.toFixed(digits);

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const bytes = args.mib * MiB;
  const dir = await mkdtemp(join(tmpdir(), 'upload-bench-'));
  const { child, baseUrl, apiKey } = await startChildRuntime();
  const client = new ApiClient({ baseUrl, getApiKey: async () => apiKey, userAgent: 'agent-runtime-vscode/bench' });
  try {
    const path = join(dir, 'payload.bin');
    await makeFile(path, bytes, args.real);
    // Warm up both paths (connection, JIT, the runtime's first blob) on a small file.
    const warm = join(dir, 'warm.bin');
    await makeFile(warm, MiB, true);
    await client.deleteFile((await client.uploadFile(warm)).id);
    await client.deleteFile((await uploadWithCurl(baseUrl, apiKey, warm)).fileId);

    const clientRuns: ClientRun[] = [];
    const curlMs: number[] = [];
    for (let round = 0; round < args.rounds; round++) {
      const ours = await uploadWithClient(client, path);
      await client.deleteFile(ours.fileId);
      clientRuns.push(ours);
      const theirs = await uploadWithCurl(baseUrl, apiKey, path);
      await client.deleteFile(theirs.fileId);
      curlMs.push(theirs.ms);
      console.log(
        `round ${round + 1}: client ${fmt(ours.ms)} ms, curl ${fmt(theirs.ms)} ms, RSS +${fmt(ours.rssGrowthMiB, 1)} MiB, ArrayBuffers +${fmt(ours.arrayBuffersGrowthMiB, 1)} MiB`,
      );
    }

    const clientMs = median(clientRuns.map((r) => r.ms));
    const curlMedian = median(curlMs);
    const rss = Math.max(...clientRuns.map((r) => r.rssGrowthMiB));
    const arrayBuffers = Math.max(...clientRuns.map((r) => r.arrayBuffersGrowthMiB));
    const ratio = clientMs / curlMedian;
    const kind = args.real ? 'random content' : 'sparse';
    console.log('');
    console.log(
      `Upload of ${args.mib} MiB (${kind}) to the reference runtime on loopback, median of ${args.rounds} rounds (Node ${process.version}):`,
    );
    console.log('');
    console.log('| | API client | curl -F | target |');
    console.log('|---|---|---|---|');
    console.log(
      `| wall time (median) | ${fmt(clientMs)} ms (${fmt(bytes / MiB / (clientMs / 1000))} MiB/s) | ${fmt(curlMedian)} ms (${fmt(bytes / MiB / (curlMedian / 1000))} MiB/s) | client <= 1.2x curl: ${fmt(ratio, 2)}x ${ratio <= 1.2 ? 'met' : 'MISSED'} |`,
    );
    console.log(`| peak RSS growth (max) | ${fmt(rss, 1)} MiB | n/a | < 64 MiB ${rss < 64 ? 'met' : 'MISSED'} |`);
    console.log(
      `| peak ArrayBuffers growth (max) | ${fmt(arrayBuffers, 1)} MiB | n/a | < 64 MiB ${arrayBuffers < 64 ? 'met' : 'MISSED'} |`,
    );
    if (ratio > 1.2 || rss >= 64 || arrayBuffers >= 64) {
      process.exitCode = 1;
    }
  } finally {
    await client.dispose();
    child.disconnect();
    await new Promise((r) => child.once('exit', r));
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--runtime-child')) {
  void serveRuntime();
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
