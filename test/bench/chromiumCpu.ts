// CPU time of Chromium's processes and of each renderer's main thread, from /proc (Linux), for
// the UI benchmarks: unlike the page's "busy" share (wall time inside tasks), CPU time does not
// grow when the machine is loaded and the thread waits for a core, so it compares two builds
// measured at different loads. The process ids come from Chromium itself (SystemInfo).
import * as fs from 'node:fs';
import type { Browser } from 'playwright-core';

interface ProcessSample {
  type: string;
  /** Seconds of CPU (user + system), the whole process. */
  cpu: number;
  /** Seconds of CPU of its main thread. */
  main: number;
}

export interface CpuSample {
  at: number;
  processes: Map<number, ProcessSample>;
}

const TICKS = 100;

function ticks(statFile: string): number | undefined {
  try {
    const text = fs.readFileSync(statFile, 'utf8');
    // The command name may hold spaces: the fields start after its closing parenthesis.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return undefined;
  }
}

export async function chromiumCpu(browser: Browser): Promise<CpuSample> {
  const session = await browser.newBrowserCDPSession();
  const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as {
    processInfo: { type: string; id: number }[];
  };
  await session.detach();
  const processes = new Map<number, ProcessSample>();
  for (const { type, id } of processInfo) {
    const cpu = ticks(`/proc/${id}/stat`);
    const main = ticks(`/proc/${id}/task/${id}/stat`);
    if (cpu !== undefined && main !== undefined) {
      processes.set(id, { type, cpu, main });
    }
  }
  return { at: Date.now(), processes };
}

/** "renderer main thread 41 %, renderer 55 %, GPU 30 %, browser 4 % of a core" between two samples. */
export function cpuShares(before: CpuSample, after: CpuSample): { line: string; rendererMain: number; total: number } {
  const wall = (after.at - before.at) / 1000;
  const byType = new Map<string, number>();
  const mains: number[] = [];
  let total = 0;
  for (const [pid, a] of after.processes) {
    const b = before.processes.get(pid) ?? { type: a.type, cpu: 0, main: 0 };
    const used = a.cpu - b.cpu;
    byType.set(a.type, (byType.get(a.type) ?? 0) + used);
    total += used;
    if (a.type === 'renderer') {
      mains.push(a.main - b.main);
    }
  }
  mains.sort((x, y) => y - x);
  // The page's renderer is the busiest; a webview on another site has a second one.
  const rendererMain = mains[0] ?? 0;
  const pct = (s: number) => `${Math.round((s / wall) * 100)} %`;
  const busyMains = mains.filter((m, i) => i === 0 || m / wall >= 0.02);
  const parts = [`renderer main thread${busyMains.length > 1 ? 's' : ''} ${busyMains.map(pct).join(' + ')}`];
  for (const [type, used] of [...byType].sort((x, y) => y[1] - x[1])) {
    parts.push(`${type} ${pct(used)}`);
  }
  return {
    line: `CPU (of one core): ${parts.join(', ')}; all of Chromium ${pct(total)}`,
    rendererMain: rendererMain / wall,
    total: total / wall,
  };
}
