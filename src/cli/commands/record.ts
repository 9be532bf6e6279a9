import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { basename, dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isEnvironmentId, ENVIRONMENT_IDS } from '../../core/environments';
import type { Exchange } from '../../core/exchange/types';
import { exchangesOfLog, LOG_LINE_BODY_HINT, LOGGED_ORIGIN, oneOriginBases, recordFlow, RecordRefused, type RecordOptions } from '../../core/record';
import { CliCommand, CliIo, UsageError } from '../io';

const USAGE =
  'tpp record (--sandbox <origin> | <log file>) [--out <file.http>] [--force] [--partner <id>] [--since <ISO 8601>] [--path <pattern>] [--admin-token <t>] [--env local|sandbox|production] [--skip-refused]';

const HELP = `Writes a regression flow (.http, tpp docs flows: "Recording a flow") from what was sent: the requests your application
sent to a tpp sandbox (its journal, read through the control API) or through tpp proxy (a file of its --log json lines,
or of journal entries or exchanges). One request per exchange, in order; an id an earlier answer gave is read from that
answer ({{registration.response.body.$.id}}); invoice numbers and the requests' dates are variables new on each run;
each request checks its recorded status and, for the contract's endpoints, ?? contract. No token is written: tpp run
signs every request.

  --sandbox <origin>       the sandbox's origin or v3 base address (the first line tpp sandbox prints)
  <log file>               JSON Lines of tpp proxy --log json (or tpp sandbox --log json, journal entries, exchanges),
                           or a saved GET /__tpp/requests answer
  --out <file.http>        where to write the flow (default: stdout); an existing file is kept unless --force
  --partner <id>           only that partner's requests; written as {{partnerId}}
  --since <ISO 8601>       only requests at or after that time (the sandbox's clock)
  --path <pattern>         only requests whose path matches (* within a segment, ** across), as GET /__tpp/requests
  --admin-token <t>        the sandbox's admin token, when it was started with one (or set TPP_ADMIN_TOKEN, which ps
                           does not show); the editor's Local sandbox: Tire Protection: Copy Local Control Token
  --env <environment>      the environment the requests went to (default: local for --sandbox, else as logged)
  --skip-refused           leave out the exchanges a flow cannot send again (named on stderr and in the flow's header)
  -h, --help               this help

Exit 0 the flow was written; 2 nothing to record (an empty journal), an exchange a flow cannot send again (a 401, a
server failure, an injected fault, a body the log did not keep…; each named), the journal could not be read, or an
option is wrong.`;

/** The journal's own filters (docs/testing-your-application.md, Journal), passed through as given. */
const FILTERS = ['partner', 'since', 'path'] as const;

/** The origin of `--sandbox` (an origin or a base address of the sandbox). */
function originOf(value: string): string {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
    return u.origin;
  } catch {
    throw new UsageError(`--sandbox must be the sandbox's origin or base address, e.g. http://127.0.0.1:43117, not '${value}'`);
  }
}

type Values = Partial<Record<(typeof FILTERS)[number] | 'admin-token', string>>;

/** Longest wait for the journal, in milliseconds: a sandbox that does not answer ends the command, it never hangs. */
const JOURNAL_TIMEOUT_MS = 30_000;

/**
 * One GET with node:http(s): a single read of a local control API needs nothing more, and the command starts faster
 * without loading fetch's client. Resolves to the status and text; rejects with the error (its `code` says why).
 */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = (url.startsWith('https:') ? httpsRequest : httpRequest)(url, { headers, timeout: JOURNAL_TIMEOUT_MS }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: `no answer within ${JOURNAL_TIMEOUT_MS / 1000} s` })));
    req.on('error', reject);
    req.end();
  });
}

/**
 * The admin token to send: `--admin-token`, else `TPP_ADMIN_TOKEN`, as `tpp sandbox` takes it (the variable keeps the
 * token out of the process list; docs/testing-your-application.md, Security), with where it came from.
 */
function adminTokenOf(values: Values): { value: string; from: string } | undefined {
  if (values['admin-token'] !== undefined) return { value: values['admin-token'], from: '--admin-token' };
  const env = process.env.TPP_ADMIN_TOKEN;
  return env ? { value: env, from: 'TPP_ADMIN_TOKEN' } : undefined;
}

/**
 * The two ways on after a 401: the token of a `tpp sandbox` started with one, or the editor's Local sandbox's, which
 * only the editor gives (its Copy Local Control Token command; docs/sandbox.md).
 */
const TOKEN_HELP =
  "Give the sandbox's admin token with --admin-token or TPP_ADMIN_TOKEN; for the editor's Local sandbox, run 'Tire Protection: Copy Local Control Token' in VS Code " +
  '(a new token after each restart of the Local sandbox).';

/** The journal's entries (`GET <origin>/__tpp/requests`), filtered by the sandbox. Throws UsageError with the reason. */
async function readJournal(origin: string, values: Values, env: string): Promise<Exchange[]> {
  const query = new URLSearchParams({ limit: '10000' });
  for (const f of FILTERS) if (values[f] !== undefined) query.set(f, values[f] as string);
  const token = adminTokenOf(values);
  let res: { status: number; text: string };
  try {
    res = await get(`${origin}/__tpp/requests?${query}`, token ? { authorization: `Bearer ${token.value}` } : {});
  } catch (err) {
    throw new UsageError(`cannot read the journal of ${origin} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): is tpp sandbox running there?`);
  }
  if (res.status === 401) throw new UsageError(`${origin} refused the journal read (401): ${token ? `the admin token sent (${token.from}) is not this sandbox's.` : 'no admin token was sent.'} ${TOKEN_HELP}`);
  if (res.status === 404) throw new UsageError(`${origin} has no control API (a sandbox started with --no-admin, or not a tpp sandbox)`);
  if (res.status !== 200) throw new UsageError(`${origin} answered ${res.status} to the journal read: ${res.text.slice(0, 300)}`);
  return exchangesOfLog(res.text, 'the journal').exchanges.map((x) => ({ ...x, env }));
}

/** The exchanges of a log file, filtered by `--partner` and `--since` as the journal would be. */
function readLogFile(path: string, values: Values): { exchanges: Exchange[]; bare: boolean } {
  if (values.path !== undefined) throw new UsageError('--path filters a sandbox\'s journal (--sandbox); a log file is recorded as it is (keep the lines you want)');
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let read: { exchanges: Exchange[]; bare: boolean };
  try {
    read = exchangesOfLog(content, path);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const since = values.since === undefined ? undefined : Date.parse(values.since);
  if (since !== undefined && Number.isNaN(since)) throw new UsageError(`--since must be an ISO 8601 time such as 2026-01-31T12:00:00Z, not '${values.since}'`);
  const exchanges = read.exchanges.filter((x) => (values.partner === undefined || x.partner === values.partner) && (since === undefined || Date.parse(x.time) >= since));
  return { exchanges, bare: read.bare };
}

/** `tpp record`: see HELP. */
export async function runRecordCommand(args: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: {
      sandbox: { type: 'string' },
      out: { type: 'string' },
      force: { type: 'boolean', default: false },
      partner: { type: 'string' },
      since: { type: 'string' },
      path: { type: 'string' },
      'admin-token': { type: 'string' },
      env: { type: 'string' },
      'skip-refused': { type: 'boolean', default: false },
    },
  });
  if ((values.sandbox === undefined) === (positionals.length === 0)) throw new UsageError('give either --sandbox <origin> or one log file');
  if (positionals.length > 1) throw new UsageError(`give one log file, not ${positionals.length}`);
  if (values.env !== undefined && !isEnvironmentId(values.env)) throw new UsageError(`--env must be ${ENVIRONMENT_IDS.join(', ')} (got '${values.env}')`);
  const out = values.out === undefined ? undefined : resolve(cwd, values.out);
  if (out && existsSync(out) && !values.force) throw new UsageError(`${values.out} exists: choose another --out, or --force to replace it`);
  const origin = values.sandbox === undefined ? undefined : originOf(values.sandbox);
  const file = positionals[0] === undefined ? undefined : resolve(cwd, positionals[0]);
  const read = origin ? { exchanges: await readJournal(origin, values, values.env ?? 'local'), bare: false } : readLogFile(file as string, values);
  const filtered = FILTERS.filter((f) => values[f] !== undefined).map((f) => `--${f} ${values[f]}`).join(' ');
  if (read.exchanges.length === 0) {
    io.stderr.write(`tpp record: ${origin ? `the journal of ${origin}` : positionals[0]} holds no partner request${filtered ? ` matching ${filtered}` : ''}: nothing to record.\n`);
    return 2;
  }
  const options: RecordOptions = {
    source: origin ? `the journal of tpp sandbox at ${origin}` : `the log ${basename(file as string)}`,
    recordedBy: 'tpp record',
    ...(values.env ? { env: values.env } : origin ? { env: 'local' } : {}),
    ...(values.partner ? { partnerId: values.partner } : {}),
    bases: [oneOriginBases(origin ?? LOGGED_ORIGIN)],
    ...(out ? { fileName: basename(out) } : {}),
    skipRefused: values['skip-refused'],
    ...(read.bare ? { missingBodyHint: LOG_LINE_BODY_HINT } : {}),
  };
  let flow;
  try {
    flow = recordFlow(read.exchanges, options);
  } catch (err) {
    if (!(err instanceof RecordRefused)) throw err;
    io.stderr.write(`tpp record: ${err.message}\n${err.refusals.length ? 'Narrow what is recorded (--since, --path, --partner), or --skip-refused to leave them out.\n' : ''}`);
    return 2;
  }
  if (out) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, flow.text, { flag: values.force ? 'w' : 'wx' });
  } else io.stdout.write(flow.text);
  for (const l of flow.leftOut) io.stderr.write(`left out ${l.label}: ${l.reason}\n`);
  const where = values.out ?? 'stdout';
  io.stderr.write(`Recorded ${flow.requests} request${flow.requests === 1 ? '' : 's'} into ${where}: ${flow.contractChecks} checked with ?? contract, ${flow.references} value${flow.references === 1 ? '' : 's'} read from earlier answers, variables ${flow.variables.join(', ') || 'none'}.\n`);
  if (out) io.stderr.write(`Run it: tpp run ${values.out}${options.env ? ` --env ${options.env}` : ''}\n`);
  return 0;
}

/** `tpp record`: a regression flow from a sandbox's journal or a proxy's log. */
export const recordCommand: CliCommand = {
  name: 'record',
  usage: USAGE,
  help: HELP,
  run: (args, io) => runRecordCommand(args, io),
};
