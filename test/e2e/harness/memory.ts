// Memory of a process tree, read from /proc (RSS and PSS), for the runners' reports.
import * as fs from 'node:fs';

interface Proc {
  pid: number;
  ppid: number;
}

function allProcesses(): Proc[] {
  const out: Proc[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      out.push({ pid: Number(entry), ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) });
    } catch {
      // ended while we looked
    }
  }
  return out;
}

function descendantsAndSelf(root: number, procs: Proc[]): number[] {
  const pids = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) {
      if (!pids.has(p.pid) && pids.has(p.ppid)) {
        pids.add(p.pid);
        grew = true;
      }
    }
  }
  return [...pids];
}

export interface TreeMemory {
  processes: number;
  rssMB: number;
  pssMB: number;
}

export function treeMemory(rootPid: number | undefined): TreeMemory {
  const result = { processes: 0, rssMB: 0, pssMB: 0 };
  if (rootPid === undefined) {
    return result;
  }
  for (const pid of descendantsAndSelf(rootPid, allProcesses())) {
    try {
      const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      result.rssMB += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) / 1024;
      result.pssMB += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) / 1024;
      result.processes++;
    } catch {
      // ended while we looked
    }
  }
  return { processes: result.processes, rssMB: Math.round(result.rssMB), pssMB: Math.round(result.pssMB) };
}

/** Chromium's browser process: the child of this process running chromium (Debian's /usr/bin/chromium is a wrapper script). */
export function chromiumPid(): number | undefined {
  return allProcesses().find((p) => {
    if (p.ppid !== process.pid) {
      return false;
    }
    try {
      return /chrom/i.test(fs.readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').split('\0')[0]);
    } catch {
      return false;
    }
  })?.pid;
}

export function formatMemory(name: string, m: TreeMemory): string {
  return `${name} ${m.pssMB} MB PSS / ${m.rssMB} MB RSS in ${m.processes} processes`;
}
