// What the benches read from /proc (Linux): the CPU time of processes and of the machine, and a
// process's resident memory.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** utime, stime, cutime, cstime of a process, in seconds; undefined once it is gone. */
export function procTimes(pid: number | 'self'): number[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime field 14.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields.slice(11, 15).map((ticks) => Number(ticks) / TICKS);
  } catch {
    return undefined;
  }
}

/** CPU seconds a process has used itself (not its children); 0 once it is gone. */
export function cpuOf(pid: number): number {
  const times = procTimes(pid);
  return times ? (times[0] ?? 0) + (times[1] ?? 0) : 0;
}

/** CPU seconds of the machine's cores spent busy (user, nice, system, irq, softirq). */
export function machineBusy(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [, user, nice, system, , , irq, softirq] = line.trim().split(/\s+/).map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)) / TICKS;
}

/** VmRSS of a process in bytes; 0 once it is gone. */
export function residentBytes(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Samples a process's VmRSS every `everyMs` until stopped; `stop` returns the largest sample. */
export function sampleResidentMemory(pid: number, everyMs = 50): { stop(): number } {
  let max = residentBytes(pid);
  const timer = setInterval(() => {
    max = Math.max(max, residentBytes(pid));
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(max, residentBytes(pid));
    },
  };
}
