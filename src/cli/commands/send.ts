import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { deriveBaseUrls } from '../../core/environments';
import { kindOf, sendFiles, type FileResult } from '../../core/send/sendFiles';
import { CaptureFile, captureFromResponse, resolvePayloadVariables, sendOrder, type Captures } from '../../core/variables';
import { describeStatus } from '../../core/client/status';
import { CliCommand, CliIo, UsageError } from '../io';
import { PARTNER_OPTIONS, partnerFlags, varsOf } from '../partnerFlags';

const USAGE =
  'tpp send <file>... --base-url <v3 base> --iss <partner-id> --key <pkcs8.pem> [--json] [--var name=value]... [--v2-base-url <url>] [--eligibility-base-url <url>] [--eligibility-token <t>] [--company-name <name>] [--captures <file|none>]';

const HELP = `Sends payload files (the editor's Send Payload, without the editor), one after the other in the order given,
with retries, duplicate-safe creates and a fresh JWT per request (alg from the key's curve).

  --base-url <url>            version 3 base address ending in /api/v3 (the JWT aud); env TPP_BASE_URL
  --iss <partner-id>          the Partner ID (the JWT iss); env TPP_PARTNER_ID
  --key <pkcs8.pem>           the partner's private key (PKCS#8 PEM); env TPP_PRIVATE_KEY_FILE
  --v2-base-url <url>         version 2 host (default: the origin of --base-url)
  --eligibility-base-url <u>  eligibility lookup base ending in /api/v1 (default: origin + /api/v1)
  --eligibility-token <t>     the provider-issued token of the eligibility lookup; env TPP_ELIGIBILITY_TOKEN
  --company-name <name>       {company_name} of version 2 paths when a file has no $companyName (default: --iss)
  --var name=value            a variable for the files ({{name}}); repeatable
  --captures <file|none>      where values captured from 2xx creates ({{lastRegistration.id}}) are kept between
                              runs, per base address and Partner ID; env TPP_CAPTURES_FILE
                              (default $XDG_STATE_HOME/tpp/captures.json); 'none' keeps them for this run only
  --json                      one JSON object per request on stdout (the toolkit's Exchange shape, token masked)
  -h, --help                  this help

Files are sent in the order given, except that a file using a capture ({{lastRegistration.id}}) goes after the
files of the run that make it, and a cancellation after the other files using the same capture.
A file must say which record it is for ($registrationId, $invoiceNumber, $uniqueId): nothing is asked.
Exit 0 when every request answered 2xx; 1 when one answered 4xx or 5xx (problems printed: status, its meaning
in the spec, the server's message, field problems); 2 on a usage error, an unreadable or unsendable file, or
an unreachable server.`;

/** The human-readable report of one file: a status line, then the problems indented. */
export function renderResult(r: FileResult): string {
  const ex = r.exchange;
  if (!ex) return `✘ ${r.message}\n`;
  const status = ex.response ? `${ex.response.status} ${describeStatus(ex.response.status).name}` : 'no answer';
  const mark = r.exitCode === 0 ? (ex.recovered ? '↺' : '✔') : '✘';
  let out = `${mark} ${r.file} → ${ex.request.method} ${ex.request.url} → ${status} · ${ex.durationMs} ms · ${ex.attempts} attempt${ex.attempts === 1 ? '' : 's'}\n`;
  if (ex.recovered) out += `  recovered: the first attempt was stored (its answer was lost); found with GET ${ex.recovered.checkUrl}; not sent again\n`;
  if (r.exitCode === 0) {
    if (ex.response?.body) out += `  ${ex.response.body.length > 300 ? `${ex.response.body.slice(0, 300)}…` : ex.response.body}\n`;
    return out;
  }
  // The error's own words (status, meaning, the server's message, attempts), then the description's items; its
  // `status` items repeat the server's message, which those words already hold.
  out += `  ${ex.problem ?? r.message.replace(`${basename(r.file)}: `, '')}\n`;
  for (const d of ex.diagnosis ?? []) if (d.rule !== 'status') out += `  ${d.rule}: ${d.message}\n`;
  return out;
}

/** `tpp send`: see HELP. */
export async function runSendCommand(args: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: {
      ...PARTNER_OPTIONS,
      'company-name': { type: 'string' },
      captures: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length === 0) throw new UsageError('give at least one payload file');
  const { baseUrl, iss, keyFile } = partnerFlags({ baseUrl: values['base-url'], iss: values.iss, key: values.key }, env);
  let bases: ReturnType<typeof deriveBaseUrls>;
  try {
    bases = deriveBaseUrls(baseUrl);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  let pem: string;
  try {
    pem = readFileSync(keyFile, 'utf8');
  } catch (err) {
    io.stderr.write(`tpp send: cannot read the private key ${keyFile}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}\n`);
    return 2;
  }
  const vars = varsOf(values.var ?? []);
  const texts = new Map<string, string>();
  const files = inSendOrder(positionals, texts);
  const capturesPath = values.captures ?? CaptureFile.defaultPath(env);
  const store = capturesPath === 'none' ? undefined : new CaptureFile(capturesPath);
  const target = `${bases.v3} ${iss}`;
  let captured: Captures = store?.load(target) ?? {};
  let result;
  try {
    result = await sendFiles(files, {
      baseUrls: { v3: bases.v3, v2: values['v2-base-url'] ?? bases.v2, eligibility: values['eligibility-base-url'] ?? bases.eligibility },
      partnerId: iss,
      privateKeyPem: pem,
      eligibilityToken: values['eligibility-token'] ?? env.TPP_ELIGIBILITY_TOKEN,
      companyName: values['company-name'],
      vars,
      readText: (p) => texts.get(p) ?? readFileSync(p, 'utf8'),
      resolve: (value, kind, scope) => resolvePayloadVariables(value, kind, { environment: scope.vars, captured }),
      capture: (kind, sent, body) => {
        const next = captureFromResponse(kind, sent, body, captured);
        if (next === captured) return;
        captured = next;
        try {
          store?.save(target, captured);
        } catch (err) {
          io.stderr.write(`tpp send: could not keep the captured values in ${capturesPath} (${(err as NodeJS.ErrnoException).code ?? String(err)}); they last for this run only\n`);
        }
      },
      onResult: (r) => {
        if (values.json) {
          if (r.exchange) io.stdout.write(`${JSON.stringify(r.exchange)}\n`);
          else io.stderr.write(`${r.message}\n`);
        } else io.stdout.write(renderResult(r));
      },
    });
  } catch (err) {
    // the key (KeyError) or a client setting (PolicyError for a plain-http remote address) before anything was sent
    io.stderr.write(`tpp send: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  if (!values.json && positionals.length > 1) {
    const ok = result.results.filter((r) => r.exitCode === 0).length;
    io.stdout.write(`${ok} of ${result.results.length} answered 2xx\n`);
  }
  return result.exitCode;
}

/**
 * The files in the order they are sent: producers of captures first, cancellations last (see HELP). Each text read
 * is kept in `texts`, so sendFiles reads them rather than the disk again; an unreadable file keeps its place and
 * fails in sendFiles.
 */
function inSendOrder(positionals: readonly string[], texts: Map<string, string>): string[] {
  return sendOrder(
    positionals.map((p) => {
      try {
        const text = readFileSync(p, 'utf8');
        texts.set(p, text);
        const value = JSON.parse(text) as unknown;
        return { value, kind: kindOf(value, p) };
      } catch {
        return {};
      }
    }),
  ).map((i) => positionals[i] as string);
}

/** `tpp send`: sends payload files for CI. */
export const sendCommand: CliCommand = {
  name: 'send',
  usage: USAGE,
  help: HELP,
  run: (args, io) => runSendCommand(args, io),
};
