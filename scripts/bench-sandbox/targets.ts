// The targets of the light sandbox (memory, reads near the in-memory floor, restart flat with size, the request log
// off the hot path), each printed with the figure measured and "met" or "NOT met". Ratios are from one run.
import type { Figure } from './load';

/** What the benchmark measured of one server (a row of its table). */
export interface TargetRow {
  readonly target: string;
  readonly figures: Partial<Record<string, Figure>>;
  readonly rss?: { rss: number; peak: number };
}

/** A sandbox started with nothing stored: seconds from process start to ready, and RSS once idle. */
export interface FirstStart {
  readonly where: 'in memory' | 'on a new directory';
  readonly seconds: number;
  readonly idleRss?: number;
}

const f1 = (n: number | undefined, d = 2) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(d));

function line(what: string, value: number | undefined, goal: string, met: boolean | undefined): void {
  const state = met === undefined ? 'not measured' : met ? 'met' : 'NOT met';
  console.log(`  ${what.padEnd(58)}${f1(value).padStart(10)}  (${goal})  ${state}`);
}

/** `a / b` of req/s for `op`, when both were measured. */
function rps(a: TargetRow | undefined, b: TargetRow | undefined, op: string): number | undefined {
  const x = a?.figures[op]?.rps;
  const y = b?.figures[op]?.rps;
  return x && y ? x / y : undefined;
}

/** Targets of one size's run. */
export function printSizeTargets(stored: number, rows: readonly TargetRow[]): void {
  const row = (name: string) => rows.find((r) => r.target === name);
  const sandbox = row('sandbox (log off)');
  const memory = row('floor (in memory)');
  const json = row('json-server');
  const pg = row('sandbox (PostgreSQL)');
  const sandboxes = rows.filter((r) => r.target.startsWith('sandbox (') && r !== pg);
  const rssAfter = Math.max(...sandboxes.map((r) => r.rss?.rss ?? 0));
  const peak = Math.max(...sandboxes.map((r) => r.rss?.peak ?? 0));
  const cmp = (v: number | undefined, goal: number) => (v === undefined ? undefined : v >= goal);
  console.log(`targets, ${stored.toLocaleString('en-US')} stored (sandbox = PGlite, request log off):`);
  if (stored <= 10_000) {
    line('RSS after the run, MiB (largest PGlite sandbox)', rssAfter, '<= 200', rssAfter ? rssAfter <= 200 : undefined);
    line('RSS peak, MiB', peak, '<= 300', peak ? peak <= 300 : undefined);
  }
  if (stored >= 1_000_000) line('RSS with 1M stored, MiB', rssAfter, '<= 250', rssAfter ? rssAfter <= 250 : undefined);
  const readMem = rps(sandbox, memory, 'read');
  line('read by id / in-memory floor', readMem, '>= 0.5', cmp(readMem, 0.5));
  const readJson = rps(sandbox, json, 'read');
  line('read by id / json-server', readJson, '>= 3', cmp(readJson, 3));
  const listJson = rps(sandbox, json, 'list');
  line('list page / json-server', listJson, '>= 2', cmp(listJson, 2));
  const createJson = rps(sandbox, json, 'create');
  line('create / json-server', createJson, '>= 1.5', cmp(createJson, 1.5));
  const pgMem = rps(pg, memory, 'read');
  line('PostgreSQL mode: read by id / in-memory floor', pgMem, '>= 0.4', pg ? cmp(pgMem, 0.4) : undefined);
  const log = rps(row('sandbox (request log)'), sandbox, 'read');
  line('read with the request log on / off', log, '>= 0.95', cmp(log, 0.95));
}

/** Targets of the first starts and of the restarts over every size run. */
export function printStartTargets(first: readonly FirstStart[], restarts: ReadonlyMap<number, number>): void {
  console.log('\ntargets, start and restart:');
  for (const s of first) {
    line(`first start ${s.where}, s`, s.seconds, '<= 2', s.seconds <= 2);
    line(`RSS idle after a first start ${s.where}, MiB`, s.idleRss, '<= 160', s.idleRss === undefined ? undefined : s.idleRss <= 160);
  }
  const small = restarts.get(10_000);
  const big = restarts.get(1_000_000);
  for (const [n, sec] of restarts) console.log(`  restart with ${n.toLocaleString('en-US')} stored: ${f1(sec)} s`);
  line('restart with 1M stored, s', big, '<= 1.5', big === undefined ? undefined : big <= 1.5);
  // Within 1.5x of the 10k restart: with the largest size run (the target names 1M; --sizes 10000,1000000).
  const largest = Math.max(0, ...restarts.keys());
  const ratio = small !== undefined && largest > 10_000 ? (restarts.get(largest) as number) / small : undefined;
  const label = largest > 10_000 ? `restart at ${largest.toLocaleString('en-US')} / at 10,000` : 'restart at 1M / at 10,000 (needs both sizes)';
  line(label, ratio, '<= 1.5', ratio === undefined ? undefined : ratio <= 1.5);
}
