/**
 * What tells one process and one boot of the machine from another, for locks (fileLock.ts) and the backfill journal
 * (docs/backfills.md, What a stop can lose).
 */
import { readFileSync } from 'node:fs';
import { uptime } from 'node:os';

/**
 * The operating system's boot: Linux's boot id, elsewhere `boot-` and the boot time to the minute (which may read one
 * minute apart: a doubt makes journal rows `unsure` and never takes a lock over, never the reverse).
 */
export function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return `boot-${Math.round((Date.now() / 1000 - uptime()) / 60)}`;
  }
}

/** The fields of Linux's `/proc/<pid>/stat` after the command name (field 3 first), or undefined. */
function statOf(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces and parentheses itself.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * When process `pid` started, in clock ticks since boot (field 22 of Linux's `/proc/<pid>/stat`): a pid used again by
 * a later process has another. Undefined where there is no /proc, or no such process.
 */
export function processStart(pid: number): string | undefined {
  return statOf(pid)?.[19];
}

/**
 * Whether process `pid` runs: it exists and, on Linux, has not ended (a process that ended stays a zombie until its
 * parent reaps it, which an orphan's new parent may be slow to do, or never, in a container without an init).
 * Another user's process counts as running.
 */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const state = statOf(pid)?.[0];
  return state !== 'Z' && state !== 'X';
}
