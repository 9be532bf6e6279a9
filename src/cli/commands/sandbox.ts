import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isLoopbackHost } from '../../core/client/urlPolicy';
import { CONTROL_CALL_NAMES } from '../../core/sandbox/control/limits';
import { controlEnabled } from '../../core/sandbox/control/security';
import { redactUrl } from '../../core/sandbox/db/database';
import { CliCommand, CliIo, UsageError } from '../io';
import { number, partnersOf, waitForStop } from '../options';
import { parentGone, respawnSandbox, servesHere } from './sandboxProcess';

const USAGE =
  'tpp sandbox [--port <n>] [--host 127.0.0.1] [--data-dir <dir> | --database <postgres://user@host:port/db>] [--partner <id>[:<company_name>]=<spki.pem>]... [--seed | --seed-count <n>] [--eligibility-token <token>] [--rate-limit <per-second>] [--fault-rate <0..1> [--fault-mode before|after-commit]] [--slow-rate <0..1>] [--slow-ms <ms>] [--term-months <n>] [--log text|json] [--admin-token <t> | --no-admin]';
declare const __TPP_VERSION__: string | undefined;

const HELP = `Runs the Local sandbox: the whole partner API (version 3, version 2 records, the eligibility lookup) on
one origin. The first line on stdout is the version 3 base address (the JWT aud of version 3 calls); the version 2
base (and aud) is the origin, the eligibility base is origin + /api/v1. One line per request goes to stderr;
with --log json, one JSON object per request also goes to stdout, after the base address.

Options:
  --port <n>                 port to listen on (default 0: a free port)
  --host <addr>              interface (default 127.0.0.1)
  --data-dir <dir>           keep the records in an embedded PostgreSQL (PGlite) under <dir>; default: in memory
  --database <url>           keep them in the tpp schema of a PostgreSQL server instead (shared by a team or CI)
  --partner <id>[:<company_name>]=<spki.pem>
                             register a partner: its Partner ID (the JWT iss), optionally its version 2 name
                             segment ({company_name} in /v2/partners/{company_name}; default: the ID) and its
                             public key (SPKI PEM). Repeatable.
  --seed                     load a few hundred sample registrations, claims, shops and motor-club records per partner
  --seed-count <n>           bulk-load <n> sample registrations (with claims and cancellations) per partner
  --eligibility-token <t>    the dedicated token of the eligibility lookup
  --rate-limit <n>           answer 429 beyond n requests per second and partner
  --fault-rate <0..1>        answer that share of authenticated requests with an injected 500/502/503/504
  --fault-mode <m>           before (default): the fault answers before anything is processed; after-commit: the
                             write is processed and stored, then its answer is replaced by a 500
  --slow-rate <0..1>, --slow-ms <ms>   delay that share of requests by that long
  --term-months <n>          program term: registrations expire n months after enrolment (default 36)
  --log text|json            json: after the base-address line, print one JSON object per answered request on
                             stdout: {"time","method","path","status","ms","partner","diagnosis":[{"rule","message"}]},
                             where a failure's diagnosis names the broken JWT claim (iat, aud, alg, ...) or the JSON
                             path of the payload field, with the fix (default text: the stderr lines only)
  --admin-token <t>          the control API (/__tpp/: ${CONTROL_CALL_NAMES.join(', ')})
                             answers on a loopback --host by default; elsewhere only with this token, which every
                             control call but health then carries as Authorization: Bearer <t> (or set
                             TPP_ADMIN_TOKEN, which ps does not show)
  --no-admin                 turn the control API off
  -h, --help                 this help

While --seed or --seed-count loads, GET /__tpp/health answers 503 {"status":"starting"} with Retry-After: 1 (partner
routes 503 too); the first stdout line comes once it is ready.

Reference, installed with tpp: tpp docs sandbox (this sandbox: rules, limits, storage, faults) and tpp docs testing
(the control API and the fixture pattern of a test suite); as OpenAPI: tpp openapi --interface control.`;

/** The options of `tpp sandbox` (docs/sandbox.md). */
const SANDBOX_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string', default: '127.0.0.1' },
  'data-dir': { type: 'string' },
  database: { type: 'string' },
  'seed-count': { type: 'string' },
  partner: { type: 'string', multiple: true, default: [] },
  'eligibility-token': { type: 'string' },
  'rate-limit': { type: 'string' },
  'fault-rate': { type: 'string' },
  'fault-mode': { type: 'string', default: 'before' },
  'slow-rate': { type: 'string' },
  'slow-ms': { type: 'string' },
  'term-months': { type: 'string' },
  seed: { type: 'boolean', default: false },
  log: { type: 'string', default: 'text' },
  'admin-token': { type: 'string' },
  'no-admin': { type: 'boolean', default: false },
} satisfies ParseArgsConfig['options'];

/**
 * Runs the Local sandbox in the foreground. The first line on stdout is the v3 base address; one line per
 * request goes to stderr; SIGINT/SIGTERM stop it cleanly (exit 0). Exit 2 on a usage error or when it cannot
 * start (port taken, unreadable data directory, bad key).
 */
export async function runSandboxCommand(args: string[], io: CliIo, stop?: AbortSignal): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: SANDBOX_OPTIONS,
  });
  const port = number('port', values.port, 0, 65535, true) ?? 0;
  const rate = number('rate-limit', values['rate-limit'], 0, 1_000_000, false);
  const faultRate = number('fault-rate', values['fault-rate'], 0, 1, false);
  const faultMode = values['fault-mode'];
  if (faultMode !== 'before' && faultMode !== 'after-commit') throw new UsageError(`--fault-mode must be before or after-commit, not '${faultMode}'`);
  const slowRate = number('slow-rate', values['slow-rate'], 0, 1, false);
  const slowMs = number('slow-ms', values['slow-ms'], 0, 600_000, true);
  const termMonths = number('term-months', values['term-months'], 1, 1200, true);
  const seedCount = number('seed-count', values['seed-count'], 0, 10_000_000, true);
  const partners = partnersOf(values.partner ?? []);
  if ((values.seed || seedCount) && partners.length === 0) throw new UsageError('--seed and --seed-count need at least one --partner to load the sample data for');
  if (values['data-dir'] && values.database) throw new UsageError('give --data-dir or --database, not both');
  if (values.log !== 'text' && values.log !== 'json') throw new UsageError(`--log must be text or json, not '${values.log}'`);
  const jsonLog = values.log === 'json';
  // The token may come from the environment, so that it is not visible in the process list.
  const adminToken = values['admin-token'] ?? (process.env.TPP_ADMIN_TOKEN || undefined);
  if (values['no-admin'] && values['admin-token'] !== undefined) throw new UsageError('give --admin-token or --no-admin, not both');
  if (adminToken !== undefined && !/^\S{16,}$/.test(adminToken)) throw new UsageError('the admin token (--admin-token or TPP_ADMIN_TOKEN) must be at least 16 characters without spaces');
  const seeding = values.seed || !!seedCount;

  // Loaded lazily: fastify is only initialised when the sandbox actually runs.
  const { startSandbox } = require('../../core/sandbox/server') as typeof import('../../core/sandbox/server');
  let sb;
  try {
    sb = await startSandbox({
      host: values.host,
      port,
      dataDir: values['data-dir'],
      database: values.database,
      partners,
      eligibilityToken: values['eligibility-token'],
      rateLimitPerSecond: rate,
      faults: faultRate || slowRate ? { errorRate: faultRate, mode: faultMode, slowRate, slowMs } : undefined,
      termMonths,
      log: (line) => io.stderr.write(`${new Date().toISOString()} ${line}\n`),
      requestLog: jsonLog ? {} : undefined,
      admin: { enabled: !values['no-admin'], token: adminToken, starting: seeding },
      version: typeof __TPP_VERSION__ === 'string' ? __TPP_VERSION__ : 'dev',
    });
  } catch (err) {
    io.stderr.write(`tpp sandbox: cannot start: ${(err as Error).message}\n`);
    return 2;
  }
  // Sample data is loaded before the base address is printed: a client that waits for that line sees it all.
  const seeded: string[] = [];
  try {
    for (const p of partners) {
      if (!seeding) continue;
      const t0 = performance.now();
      const s = await sb.loadSampleData(p.id, seedCount || undefined);
      seeded.push(`Sample data for ${p.id}: ${s.registrations} registrations, ${s.claims} claims, ${s.cancellations} cancellations, ${s.shops} shops, ${s.motorClub} motor-club registrations (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    }
  } catch (err) {
    io.stderr.write(`tpp sandbox: cannot load the sample data: ${(err as Error).message}\n`);
    await sb.close();
    return 2;
  }
  sb.setReady();
  // Listening for SIGINT/SIGTERM before the address is printed: a client may stop the sandbox as soon as it reads it.
  const stopped = waitForStop(stop);
  io.stdout.write(`${sb.v3BaseUrl}\n`);
  const requestLog = sb.requestLog;
  if (jsonLog && requestLog) {
    const print = (e: { line(): unknown }) => io.stdout.write(`${JSON.stringify(e.line())}\n`);
    for (const e of requestLog.list()) print(e);
    requestLog.subscribe(print);
  }
  describeStart(io, sb, values, partners, adminToken);
  for (const line of seeded) io.stderr.write(`${line}\n`);
  const why = await stopped;
  io.stderr.write(`Stopping (${why})\n`);
  await sb.close();
  return 0;
}

/** `tpp sandbox`: runs the Local sandbox standalone. */
export const sandboxCommand: CliCommand = {
  name: 'sandbox',
  usage: USAGE,
  help: HELP,
  // Served by a process with the options of the editor's sandbox process (./sandboxProcess.ts), unless this is one.
  run: (args, io) => (servesHere() ? runSandboxCommand(args, io, parentGone()) : respawnSandbox(args)),
};

/** Where the started sandbox serves, its control API, its partners' addresses (stderr: stdout holds the base address). */
function describeStart(io: CliIo, sb: Awaited<ReturnType<typeof import('../../core/sandbox/server').startSandbox>>, values: { host?: string; database?: string; 'data-dir'?: string; 'no-admin'?: boolean }, partners: ReturnType<typeof partnersOf>, adminToken: string | undefined): void {
  const where = values.database ? `data in the PostgreSQL server ${redactUrl(values.database)}` : values['data-dir'] ? `data in ${values['data-dir']}` : 'in memory';
  io.stderr.write(`Local sandbox: v3 ${sb.v3BaseUrl}, v2 ${sb.v2BaseUrl}/v2/partners/<name>, eligibility ${sb.eligibilityBaseUrl}; ${where}\n`);
  const admin = { enabled: !values['no-admin'], token: adminToken };
  const on = controlEnabled(values.host ?? '127.0.0.1', admin);
  io.stderr.write(`Control API: ${on ? `${sb.origin}/__tpp/ (${admin.token ? 'admin token required' : 'loopback only'})` : admin.enabled ? `off but for ${sb.origin}/__tpp/health (give --admin-token for the rest)` : 'off'}\n`);
  for (const p of partners) io.stderr.write(`Partner ${p.id}: v2 path /v2/partners/${p.name ?? p.id}, v3 aud ${sb.v3BaseUrl}, v2 aud ${sb.v2BaseUrl}\n`);
  // A wildcard or other non-loopback bind: the addresses above are loopback; a client elsewhere calls another one.
  if (!isLoopbackHost(values.host ?? '127.0.0.1')) io.stderr.write(`Listening on ${values.host}: a JWT's aud must be the base address the client calls (http://<the address it calls>:${new URL(sb.origin).port}/api/v3 for version 3, the origin for version 2), not ${sb.v3BaseUrl} unless it calls that\n`);
}
