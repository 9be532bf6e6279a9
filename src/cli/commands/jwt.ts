import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { importPrivateKeyPem, KeyError } from '../../core/jwt/keys';
import { inspectJwt } from '../../core/jwt/inspect';
import { MintError, TokenMinter } from '../../core/jwt/mint';
import { renderInspectionText, summarize } from '../../core/jwt/report';
import { CliCommand, CliIo, UsageError } from '../io';

const USAGE = [
  'tpp jwt mint --key <pkcs8.pem> --iss <partner-id> --aud <base-url> [--lifetime <seconds>] [--iat <unix seconds>]',
  '       tpp jwt inspect <token> [--iss <partner-id>] [--aud <base-url>] [--key <spki.pem>] [--format text|json]',
].join('\n');

function readKeyFile(path: string, io: CliIo): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    io.stderr.write(`tpp jwt: cannot read ${path}: ${(err as { code?: string }).code ?? 'unreadable'}\n`);
    return undefined;
  }
}

/** The latest instant `--iat` accepts: 9999-12-31T23:59:59Z, in seconds. */
const MAX_IAT = 253_402_300_799;

/**
 * `--iat`: the token's issued-at instant in Unix seconds (spec: Authentication: `iat` and `exp` are seconds), for
 * tests of the time rules (a token from the past, from the future, expired); `exp` = iat + lifetime.
 * @throws UsageError when it is not a whole number of seconds between 0 and {@link MAX_IAT}.
 */
function iatOf(text: string): number {
  const iat = Number(text);
  if (!/^\d+$/.test(text) || iat > MAX_IAT) throw new UsageError(`--iat must be a whole number of seconds since 1970 (Unix time, not milliseconds), at most ${MAX_IAT} (got '${text}')`);
  return iat;
}

async function mint(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { key: { type: 'string' }, iss: { type: 'string' }, aud: { type: 'string' }, lifetime: { type: 'string' }, iat: { type: 'string' } },
    strict: true,
    allowPositionals: true,
  });
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (!values.key || !values.iss || !values.aud) throw new UsageError('mint needs --key, --iss and --aud');
  let lifetime: number | undefined;
  if (values.lifetime !== undefined) {
    lifetime = Number(values.lifetime);
    if (!/^\d+$/.test(values.lifetime) || lifetime < 1) throw new UsageError(`--lifetime must be a whole number of seconds (got '${values.lifetime}')`);
    if (lifetime > 7200) throw new UsageError(`--lifetime ${lifetime} is too long: exp may lie at most 2 hours (7200 s) ahead`);
  }
  const iat = values.iat === undefined ? undefined : iatOf(values.iat);
  const pem = readKeyFile(values.key, io);
  if (pem === undefined) return 2;
  try {
    const key = importPrivateKeyPem(pem);
    io.stdout.write((await new TokenMinter().mint(key, { iss: values.iss, aud: values.aud, lifetimeSeconds: lifetime, now: iat })) + '\n');
    return 0;
  } catch (err) {
    if (err instanceof KeyError || err instanceof MintError) {
      io.stderr.write(`tpp jwt mint: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

async function inspect(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { iss: { type: 'string' }, aud: { type: 'string' }, key: { type: 'string' }, format: { type: 'string', default: 'text' } },
    strict: true,
    allowPositionals: true,
  });
  if (positionals.length !== 1) throw new UsageError(positionals.length ? 'give exactly one token' : 'inspect needs a token');
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format must be text or json (got '${values.format}')`);
  let publicKey: string | undefined;
  if (values.key) {
    publicKey = readKeyFile(values.key, io);
    if (publicKey === undefined) return 2;
  }
  const result = await inspectJwt(positionals[0]!, {
    iss: values.iss,
    aud: values.aud,
    publicKey,
    whyNoIss: 'pass --iss to check',
    whyNoAud: 'pass --aud to check',
    whyNoKey: 'pass --key <spki.pem> to check',
  });
  if (values.format === 'json') {
    const s = summarize(result);
    io.stdout.write(JSON.stringify({ ok: result.ok, summary: { pass: s.pass, fail: s.fail, skip: s.skip }, header: result.header, claims: result.claims, key: result.key, checks: result.checks }, null, 2) + '\n');
  } else io.stdout.write(renderInspectionText(result));
  return result.ok ? 0 : 1;
}

/**
 * `tpp jwt mint|inspect` (spec: Authentication). `mint` prints one fresh token (exit 0; 2 on a bad key,
 * option or file). `inspect` prints the decoded token and the checklist; exit 0 when every check passes or
 * is skipped, 1 when any fails, 2 on usage errors.
 */
export const jwtCommand: CliCommand = {
  name: 'jwt',
  usage: USAGE,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub === 'mint') return mint(rest, io);
    if (sub === 'inspect') return inspect(rest, io);
    throw new UsageError(sub ? `unknown subcommand '${sub}' (mint or inspect)` : 'choose a subcommand: mint or inspect');
  },
};
