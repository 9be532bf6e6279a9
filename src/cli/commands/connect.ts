import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConnectError, dotenvText, FileExists, loadLines, writeNewFile, type ConnectionValues } from '../../core/connect';
import { insecureUrlProblem } from '../../core/client/urlPolicy';
import { ENVIRONMENT_IDS, ENVIRONMENTS, isEnvironmentId } from '../../core/environments';
import { importPrivateKeyPem, KeyError } from '../../core/jwt/keys';
import { DEFAULT_LOCAL_PORT, loopbackAddresses } from '../../core/sandbox/addresses';
import { SAMPLE_ENV } from '../../core/samples/env';
import { CliCommand, UsageError } from '../io';

const USAGE = `tpp connect --env ${ENVIRONMENT_IDS.join('|')} [--base-url <v3 base>] [--v2-base-url <v2 host>] [--partner-id <id>] [--key-file <pkcs8.pem>] [--port <n>] [--out <file> [--force]]`;

const HELP = `Prints (or writes with --out) the dotenv file an application reads to call an environment: exactly the
variables of the code samples of tpp code — TPP_BASE_URL, TPP_V2_BASE_URL, TPP_PARTNER_ID, TPP_PRIVATE_KEY_FILE — and
then, on standard error (standard output with --out), one line per language on loading it. The file holds no secret:
TPP_PRIVATE_KEY_FILE names the PKCS#8 PEM key the application signs with (e.g. from tpp keygen; its public half is
the one registered with the administrator, or with the Local sandbox).

Options (each also read from the variable in brackets):
  --env <environment>        local, sandbox or production (required)
  --base-url <v3 base>       the version 3 base address, ending in /api/v3 [TPP_BASE_URL]; local: from --port
  --v2-base-url <v2 host>    the version 2 host [TPP_V2_BASE_URL]; local: from --port
  --partner-id <id>          the Partner ID (JWT iss) [TPP_PARTNER_ID]; local: the one the editor shows on its
                             Local row, or the --partner id of tpp sandbox
  --key-file <pkcs8.pem>     the private key file (checked: an EC key on P-256, P-384 or P-521) [TPP_PRIVATE_KEY_FILE]
  --port <n>                 local only: the Local sandbox's port (default ${DEFAULT_LOCAL_PORT}, the editor's tpp.local.port)
  --out <file>               write the file instead of printing it; an existing file is refused unless --force
  -h, --help                 this help

Exit codes: 0 printed or written; 2 usage error, a missing value, an unusable key file, or an existing --out file.`;

function required(name: string, flag: string | undefined, env: string): string {
  const v = (flag ?? process.env[env] ?? '').trim();
  if (!v) throw new UsageError(`${name} is required (or set ${env})`);
  return v;
}

function v3Problem(value: string, option: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${option} must be an absolute address such as https://partner.example.com/api/v3 (got '${value}')`;
  }
  const insecure = insecureUrlProblem(url);
  if (insecure) return `${option}: ${insecure}`;
  if (option === '--base-url' && !/\/api\/v3$/.test(url.pathname)) return `--base-url is the version 3 address, ending in /api/v3 exactly (it is also the JWT aud; got '${value}')`;
  return undefined;
}

/** `tpp connect`: the dotenv file of an application for one environment (see HELP). */
export const connectCommand: CliCommand = {
  name: 'connect',
  usage: USAGE,
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        env: { type: 'string' },
        'base-url': { type: 'string' },
        'v2-base-url': { type: 'string' },
        'partner-id': { type: 'string' },
        'key-file': { type: 'string' },
        port: { type: 'string' },
        out: { type: 'string' },
        force: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: true,
    });
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const env = values.env;
    if (!isEnvironmentId(env)) throw new UsageError(`--env must be ${ENVIRONMENT_IDS.join(', ')}${env ? ` (got '${env}')` : ''}`);
    if (values.port !== undefined && env !== 'local') throw new UsageError('--port is for --env local only (the other environments have the addresses the administrator gave)');
    if (values.force && !values.out) throw new UsageError('--force goes with --out <file>');
    let v3: string;
    let v2: string | undefined;
    if (env === 'local' && values['base-url'] === undefined) {
      const port = values.port === undefined ? DEFAULT_LOCAL_PORT : Number(values.port);
      if (!/^\d+$/.test(values.port ?? '1') || !Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`--port must be a port from 1 to 65535 (got '${values.port}')`);
      ({ v3BaseUrl: v3, v2BaseUrl: v2 } = loopbackAddresses(port));
    } else {
      v3 = required('--base-url', values['base-url'], SAMPLE_ENV.baseUrl);
      v2 = (values['v2-base-url'] ?? process.env[SAMPLE_ENV.v2BaseUrl] ?? '').trim() || undefined;
    }
    for (const [value, option] of [[v3, '--base-url'], [v2, '--v2-base-url']] as const) {
      const problem = value === undefined ? undefined : v3Problem(value, option);
      if (problem) throw new UsageError(problem);
    }
    const keyFile = resolve(required('--key-file', values['key-file'], SAMPLE_ENV.privateKeyFile));
    try {
      importPrivateKeyPem(readFileSync(keyFile, 'utf8'));
    } catch (err) {
      const why = err instanceof KeyError ? err.message : `cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
      io.stderr.write(`tpp connect: --key-file ${keyFile}: ${why}\n`);
      return 2;
    }
    const connection: ConnectionValues = { env, v3BaseUrl: v3, v2BaseUrl: v2, partnerId: required('--partner-id', values['partner-id'], SAMPLE_ENV.partnerId), privateKeyFile: keyFile };
    let text: string;
    try {
      text = dotenvText(connection, values.out);
    } catch (err) {
      if (err instanceof ConnectError) throw new UsageError(err.message);
      throw err;
    }
    const how = loadLines(values.out ?? 'tpp.env').map((l) => `  ${l.language}: ${l.line}\n`).join('');
    if (!values.out) {
      io.stdout.write(text);
      io.stderr.write(`# ${ENVIRONMENTS[env].label}: save this as a file (tpp connect … --out tpp.env), then load it:\n${how}`);
      return 0;
    }
    try {
      await writeNewFile(values.out, text, 0o644, values.force);
    } catch (err) {
      io.stderr.write(`tpp connect: ${err instanceof FileExists ? `${err.message} Choose another --out or add --force.` : `cannot write ${values.out}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`}\n`);
      return 2;
    }
    io.stdout.write(`Wrote ${values.out} (${ENVIRONMENTS[env].label}; no secret in it). Load it:\n${how}`);
    return 0;
  },
};
