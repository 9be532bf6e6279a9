import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CliCommand, CliIo, UsageError } from '../io';

const USAGE =
  'tpp sandbox [--port <n>] [--host 127.0.0.1] [--data-dir <dir>] [--partner <id>=<spki.pem>]... [--eligibility-token <token>] [--rate-limit <per-second>] [--fault-rate <0..1>] [--slow-rate <0..1>] [--slow-ms <ms>] [--term-months <n>] [--snapshot-every <n>] [--seed]';

function number(name: string, value: string | undefined, min: number, max: number, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new UsageError(`--${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, not '${value}'`);
  }
  return n;
}

/** Parses `--partner id=path` values into Partner ID and PEM text. Throws UsageError on a bad value or unreadable file. */
function partnersOf(values: readonly string[]): { id: string; spkiPem: string }[] {
  return values.map((v) => {
    const eq = v.indexOf('=');
    if (eq <= 0 || eq === v.length - 1) throw new UsageError(`--partner expects <id>=<spki.pem>, not '${v}'`);
    const id = v.slice(0, eq);
    const file = v.slice(eq + 1);
    let pem: string;
    try {
      pem = readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read the public key of partner ${id} from ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    if (/PRIVATE KEY/.test(pem)) throw new UsageError(`${file} holds a private key; give the partner's public key (SPKI PEM)`);
    return { id, spkiPem: pem };
  });
}

/** Resolves when SIGINT or SIGTERM arrives (or `signal` aborts). */
function waitForStop(signal?: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const done = (why: string) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(why);
    };
    const onInt = () => done('SIGINT');
    const onTerm = () => done('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    signal?.addEventListener('abort', () => done('abort'), { once: true });
  });
}

/**
 * Runs the Local sandbox in the foreground. The first line on stdout is the v3 base address; one line per
 * request goes to stderr; SIGINT/SIGTERM stop it cleanly (exit 0). Exit 2 on a usage error or when it cannot
 * start (port taken, unreadable data directory, bad key).
 */
export async function runSandboxCommand(args: string[], io: CliIo, stop?: AbortSignal): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string' },
      partner: { type: 'string', multiple: true, default: [] },
      'eligibility-token': { type: 'string' },
      'rate-limit': { type: 'string' },
      'fault-rate': { type: 'string' },
      'slow-rate': { type: 'string' },
      'slow-ms': { type: 'string' },
      'term-months': { type: 'string' },
      'snapshot-every': { type: 'string' },
      seed: { type: 'boolean', default: false },
    },
  });
  const port = number('port', values.port, 0, 65535, true) ?? 0;
  const rate = number('rate-limit', values['rate-limit'], 0, 1_000_000, false);
  const faultRate = number('fault-rate', values['fault-rate'], 0, 1, false);
  const slowRate = number('slow-rate', values['slow-rate'], 0, 1, false);
  const slowMs = number('slow-ms', values['slow-ms'], 0, 600_000, true);
  const termMonths = number('term-months', values['term-months'], 1, 1200, true);
  const snapshotEvery = number('snapshot-every', values['snapshot-every'], 1, 100_000_000, true);
  const partners = partnersOf(values.partner ?? []);
  if (values.seed && partners.length === 0) throw new UsageError('--seed needs at least one --partner to load the sample data for');

  // Loaded lazily: fastify is only initialised when the sandbox actually runs.
  const { startSandbox } = require('../../core/sandbox/server') as typeof import('../../core/sandbox/server');
  let sb;
  try {
    sb = await startSandbox({
      host: values.host,
      port,
      dataDir: values['data-dir'],
      partners,
      eligibilityToken: values['eligibility-token'],
      rateLimitPerSecond: rate,
      faults: faultRate || slowRate ? { errorRate: faultRate, slowRate, slowMs } : undefined,
      termMonths,
      snapshotEvery,
      log: (line) => io.stderr.write(`${new Date().toISOString()} ${line}\n`),
    });
  } catch (err) {
    io.stderr.write(`tpp sandbox: cannot start: ${(err as Error).message}\n`);
    return 2;
  }
  io.stdout.write(`${sb.v3BaseUrl}\n`);
  io.stderr.write(`Local sandbox: v3 ${sb.v3BaseUrl}, v2 ${sb.v2BaseUrl}/v2/partners/<name>, eligibility ${sb.eligibilityBaseUrl}; ${values['data-dir'] ? `data in ${values['data-dir']}` : 'in memory'}\n`);
  for (const p of partners) {
    io.stderr.write(`Partner ${p.id}: v3 aud ${sb.v3BaseUrl}, v2 aud ${sb.v2BaseUrl}\n`);
    if (values.seed) {
      const s = sb.loadSampleData(p.id);
      io.stderr.write(`Sample data for ${p.id}: ${s.registrations} registrations, ${s.claims} claims, ${s.cancellations} cancellations, ${s.shops} shops, ${s.motorClub} motor-club registrations\n`);
    }
  }
  const why = await waitForStop(stop);
  io.stderr.write(`Stopping (${why})\n`);
  await sb.close();
  return 0;
}

/** `tpp sandbox`: runs the Local sandbox standalone. */
export const sandboxCommand: CliCommand = {
  name: 'sandbox',
  summary: 'Run the Local sandbox (an emulator of the whole partner API)',
  usage: USAGE,
  run: (args, io) => runSandboxCommand(args, io),
};
