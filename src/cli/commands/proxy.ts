import { parseArgs } from 'node:util';
import { ENVIRONMENTS, isEnvironmentId, REMOTE_ENVIRONMENT_IDS } from '../../core/environments';
import type { ProxyLogEntry } from '../../core/proxy/proxyLog';
import { startProxy } from '../../core/proxy/proxyServer';
import { ProxyConfigError } from '../../core/proxy/targets';
import { CliCommand, CliIo, UsageError } from '../io';
import { number, partnersOf, waitForStop } from '../options';

const USAGE = 'tpp proxy --target <v3 base> [--v2-target <v2 base>] [--partner <id>=<spki.pem>]... [--env sandbox|production] [--port <n>] [--host 127.0.0.1] [--log text|json]';

const HELP = `Runs a loopback-only proxy in front of the administrator's Sandbox or Production, so that your own
application's failures there are explained like on the Local sandbox. Point the application's TPP_BASE_URL at the
proxy (the first line on stdout) and keep TPP_AUDIENCE at the real base address: the token's aud must still be the
real address. Each request and answer is forwarded unchanged and streamed; nothing is ever resent. One line per
exchange goes to stderr: a 401 with the JWT checklist of the token sent (against --partner's public key and the real
base address as aud), a 400 with the payload diagnostics of the body sent, an answer the spec does not describe as
contract drift. Tokens are masked everywhere.

Options:
  --target <url>            the real version 3 base address, ending in /api/v3 (https://; http:// only on loopback)
  --v2-target <url>         the real version 2 base address ({legacy_base_url}); version 2 calls go to the proxy's
                            origin + /v2/partners/<name>
  --partner <id>=<spki.pem> the public key registered for that Partner ID, to check signatures. Repeatable.
  --env sandbox|production  the environment label of every log line (default sandbox)
  --port <n>                port to listen on (default 0: a free port)
  --host <addr>             loopback interface (default 127.0.0.1; ::1 and localhost also accepted, nothing else)
  --log text|json           json: after the base-address line, one JSON object per exchange on stdout:
                            {"time","environment","kind","method","path","status","ms","partner","diagnosis":[…]},
                            kind request, contract-drift or proxy-error (default text: the stderr lines only)
  -h, --help                this help

Details: tpp docs proxy.`;

/**
 * Longest wait of a success's log line before it is written, in milliseconds: far below what a reader notices, long
 * enough to gather a burst of exchanges into one write.
 */
const LOG_BATCH_MS = 20;

/** One stderr line of an exchange: time, environment, method, path, status, and the first finding. */
function textLine(e: ProxyLogEntry): string {
  const first = e.diagnosis[0];
  const env = isEnvironmentId(e.environment) ? ENVIRONMENTS[e.environment].logLabel : e.environment;
  return `${e.time} [${env}] ${e.method} ${e.path} ${e.status} ${e.ms}ms${e.kind === 'contract-drift' ? ' CONTRACT DRIFT' : ''}${first ? ` (${first.rule}) ${first.message}` : ''}${e.diagnosis.length > 1 ? ` (+${e.diagnosis.length - 1} more)` : ''}`;
}

/**
 * Runs the proxy in the foreground. The first line on stdout is the proxy's version 3 base address; SIGINT/SIGTERM
 * stop it (exit 0). Exit 2 on a usage error or when it cannot start (a target that is not https://, a port that is
 * taken, a bad key), with the reason on stderr.
 */
export async function runProxyCommand(args: string[], io: CliIo, stop?: AbortSignal): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      target: { type: 'string' },
      'v2-target': { type: 'string' },
      partner: { type: 'string', multiple: true, default: [] },
      env: { type: 'string', default: 'sandbox' },
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      log: { type: 'string', default: 'text' },
    },
  });
  if (!values.target) throw new UsageError('--target is required: the real version 3 base address, e.g. --target https://sandbox.example.com/api/v3');
  const env = REMOTE_ENVIRONMENT_IDS.find((id) => id === values.env);
  if (!env) throw new UsageError(`--env must be ${REMOTE_ENVIRONMENT_IDS.join(' or ')}, not '${values.env}'`);
  if (values.log !== 'text' && values.log !== 'json') throw new UsageError(`--log must be text or json, not '${values.log}'`);
  const port = number('port', values.port, 0, 65535, true) ?? 0;
  const partners = partnersOf(values.partner ?? []).map(({ id, spkiPem }) => ({ id, spkiPem }));
  let proxy;
  try {
    // Each entry is printed and then no longer needed: nothing reads past entries here (the editor's proxy keeps its
    // own), so the log keeps one instead of holding a thousand exchanges' headers and bodies alive (docs/proxy.md).
    proxy = await startProxy({ target: values.target, v2Target: values['v2-target'], partners, environment: env, port, host: values.host, requestLog: { limit: 1 } });
  } catch (err) {
    if (!(err instanceof ProxyConfigError)) throw err;
    io.stderr.write(`tpp proxy: cannot start: ${err.message}\n`);
    return 2;
  }
  io.stdout.write(`${proxy.v3BaseUrl}\n`);
  const json = values.log === 'json';
  // Lines of successes are written together at most LOG_BATCH_MS after the first: one write per stream for a burst
  // of exchanges, not one per exchange (a write to a pipe or terminal is a system call on the proxy's hot path). A
  // line with a diagnosis (a failure explained, drift) goes out at the end of the current turn of the event loop.
  let text = '';
  let lines = '';
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const flush = () => {
    clearTimeout(timer);
    clearImmediate(immediate);
    timer = immediate = undefined;
    if (text) io.stderr.write(text);
    if (lines) io.stdout.write(lines);
    text = lines = '';
  };
  proxy.log.subscribe((e) => {
    const entry = e as ProxyLogEntry;
    if (entry.diagnosis.length > 0) immediate ??= setImmediate(flush);
    else timer ??= setTimeout(flush, LOG_BATCH_MS);
    text += `${textLine(entry)}\n`;
    if (json) lines += `${JSON.stringify(entry.line())}\n`;
  });
  const { logLabel, caution } = ENVIRONMENTS[env];
  const label = caution ? `${logLabel} (${caution}: every request your application sends through the proxy is real)` : logLabel;
  io.stderr.write(`tpp proxy for ${label}: v3 ${proxy.v3BaseUrl} -> ${proxy.targets.v3}${proxy.targets.v2 ? `; v2 ${proxy.origin} -> ${proxy.targets.v2}` : ''}\n`);
  io.stderr.write(`Your application: TPP_BASE_URL=${proxy.v3BaseUrl}${proxy.targets.v2 ? ` TPP_V2_BASE_URL=${proxy.origin}` : ''} TPP_AUDIENCE=${proxy.targets.v3} (the token's aud stays the real address)\n`);
  if (partners.length === 0) io.stderr.write('No --partner given: a 401 is explained without checking the signature.\n');
  const why = await waitForStop(stop);
  await proxy.close(); // builds the entries still queued: flushed below with the rest
  flush();
  io.stderr.write(`Stopping (${why})\n`);
  return 0;
}

/** `tpp proxy`: explains the application's exchanges with Sandbox or Production. */
export const proxyCommand: CliCommand = {
  name: 'proxy',
  usage: USAGE,
  help: HELP,
  run: (args, io) => runProxyCommand(args, io),
};
