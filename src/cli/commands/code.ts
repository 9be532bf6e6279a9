import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { PayloadRefused } from '../../core/client/route';
import { ENDPOINTS } from '../../core/contract/endpoints';
import type { EndpointId } from '../../core/contract/types';
import { CaptureFile, VariableError } from '../../core/variables';
import { generateSample, isSampleLanguage, SAMPLE_LANGUAGES, SampleRefused, sampleRequestFor, sampleRequestFromPayload, type SampleRequest } from '../../core/samples';
import { CliCommand, UsageError } from '../io';

const USAGE = [
  `tpp code <payload file> --lang ${SAMPLE_LANGUAGES.join('|')}`,
  `       tpp code --endpoint <endpoint id> [--param <name>=<value>]... [--query <name>=<value>]... --lang <language>`,
].join('\n');

const HELP = `Prints a complete program that sends the request of a payload file (routed as Send Payload and tpp send route
it), or a call of one endpoint of the contract, minting a fresh partner JWT the way the spec's Authentication section
requires (ES256/ES384/ES512 from the key's curve, iat/exp in seconds, aud = the base address, iss = the Partner ID).

The program reads TPP_BASE_URL (the version 3 base address; TPP_V2_BASE_URL for version 2 records), TPP_PARTNER_ID
and TPP_PRIVATE_KEY_FILE (a PKCS#8 PEM private key) and never contains a key or a token (tpp connect writes these
as a dotenv file). It signs for TPP_AUDIENCE (TPP_V2_AUDIENCE) when set, else for the base address: set it to the
real address when the base address is a local proxy in front of it. A record the payload file
does not name ($registrationId, $uniqueId) is read from TPP_REGISTRATION_ID or TPP_SHOP_UNIQUE_ID; an --endpoint
path parameter left out likewise. It prints the status and the body and exits 1 on a status other than 2xx.

Languages: curl (bash; the token from tpp jwt mint), node (fetch + jose), python (requests + PyJWT[crypto]),
csharp (HttpClient + ECDsa), java (java.net.http + nimbus-jose-jwt), go (net/http + golang-jwt/jwt/v5),
php (Guzzle + firebase/php-jwt).

Options:
  --lang <language>          the language (required)
  --endpoint <id>            an endpoint of the contract instead of a payload file, e.g. getTireProtectionRegistration
  --param <name>=<value>     a path parameter of --endpoint (repeatable), e.g. --param id=65f0c2...
  --query <name>=<value>     a query parameter of --endpoint (repeatable), e.g. --query invoiceNumber=INV-1
  -h, --help                 this help

Exit codes: 0 printed; 2 usage error, unreadable file, or a file that is no valid payload.`;

function pairs(option: string, values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new UsageError(`--${option} expects <name>=<value>, not '${v}'`);
    out[v.slice(0, eq)] = v.slice(eq + 1);
  }
  return out;
}

/**
 * `tpp code <payload file> --lang <language>` and `tpp code --endpoint <id> … --lang <language>`: prints a code
 * sample (src/core/samples) on stdout. Exit 0 printed; 2 on a usage error, an unreadable or invalid file, or an
 * endpoint with no sample (the eligibility lookup).
 */
export const codeCommand: CliCommand = {
  name: 'code',
  usage: USAGE,
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        lang: { type: 'string' },
        endpoint: { type: 'string' },
        param: { type: 'string', multiple: true, default: [] },
        query: { type: 'string', multiple: true, default: [] },
      },
      allowPositionals: true,
      strict: true,
    });
    if (!values.lang) throw new UsageError(`choose a language with --lang (${SAMPLE_LANGUAGES.join(', ')})`);
    if (!isSampleLanguage(values.lang)) throw new UsageError(`--lang must be one of ${SAMPLE_LANGUAGES.join(', ')}, got '${values.lang}'`);
    let req: SampleRequest;
    try {
      if (values.endpoint !== undefined) {
        if (positionals.length) throw new UsageError('give a payload file or --endpoint, not both');
        if (!Object.hasOwn(ENDPOINTS, values.endpoint)) throw new UsageError(`unknown endpoint '${values.endpoint}' (tpp openapi lists them as operationId)`);
        req = sampleRequestFor(values.endpoint as EndpointId, pairs('param', values.param), pairs('query', values.query));
      } else {
        if (positionals.length !== 1) throw new UsageError(positionals.length ? 'give exactly one payload file' : 'give a payload file (or --endpoint)');
        if (values.param.length || values.query.length) throw new UsageError('--param and --query go with --endpoint; a payload file names its record with $registrationId or $uniqueId');
        const file = positionals[0]!;
        let text: string;
        try {
          text = await readFile(file, 'utf8');
        } catch (err) {
          io.stderr.write(`tpp code: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
          return 2;
        }
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (err) {
          io.stderr.write(`tpp code: ${file} is not JSON: ${(err as Error).message}\n`);
          return 2;
        }
        // {{variables}}: dynamic values resolved now; captures kept by `tpp send` for TPP_BASE_URL and TPP_PARTNER_ID
        const target = process.env.TPP_BASE_URL && process.env.TPP_PARTNER_ID ? `${process.env.TPP_BASE_URL} ${process.env.TPP_PARTNER_ID}` : undefined;
        const captured = target ? new CaptureFile(CaptureFile.defaultPath()).load(target) : {};
        req = sampleRequestFromPayload(value, basename(file), { captured });
      }
    } catch (err) {
      if (err instanceof PayloadRefused || err instanceof SampleRefused || err instanceof VariableError) {
        io.stderr.write(`tpp code: ${err.message.replace(/^Not sent: /, '')}\n`);
        return 2;
      }
      throw err;
    }
    io.stdout.write(generateSample(req, values.lang));
    return 0;
  },
};
