// One server of the sandbox benchmark, in its own process: the Local sandbox from dist/sandbox.js (the bundle the
// CLI and the editor run), started with startSandbox as `tpp sandbox --data-dir <dir> --partner <id>=<pem>
// --seed-count <n>` starts it. Prints one JSON line {origin, pid, stored, seedSeconds} on stdout when ready; SIGTERM
// stops it. Unless --quiet, per-request log lines go to stderr (a file, like a terminal would), and the request log
// with its diagnosis is on, one JSON line per request to stderr as `tpp sandbox --log json` prints them.
//   node scripts/bench-sandbox/serve-sandbox.bench.cjs (made by load.ts from this file) --partner ID --pem FILE --key FILE --stored N
//        [--data-dir DIR] [--database URL] [--quiet] [--request-log] [--dist DIR]
// (--dist: the dist/ directory whose sandbox.js is served, default this repository's: another build's, compare.ts.)
// (--key: the partner's private key, only to count what is stored through the API after seeding.)
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Exchange } from '../../src/core/exchange/types';
import { exchangePusher } from '../../src/core/childProcess/childProtocol';
import { mint, privateKeyOf } from './token';

const { values } = parseArgs({
  options: {
    partner: { type: 'string' },
    pem: { type: 'string' },
    key: { type: 'string' },
    stored: { type: 'string', default: '0' },
    'data-dir': { type: 'string' },
    database: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    'request-log': { type: 'boolean', default: false },
    dist: { type: 'string' },
  },
});

interface Handle {
  origin: string;
  v3BaseUrl: string;
  requestLog?: { subscribe(l: (e: { line(): unknown; exchange(): Exchange }) => void): unknown };
  loadSampleData(partnerId: string, count?: number): unknown;
  close(): Promise<void>;
}

async function main(): Promise<void> {
  const server = require(join(values.dist ?? join(__dirname, '../../dist'), 'sandbox.js')) as { startSandbox(o: Record<string, unknown>): Promise<Handle> };
  const partner = values.partner as string;
  const stored = Number(values.stored);
  const log = values.quiet ? undefined : (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
  const t0 = performance.now();
  // seedCount is the bulk loader of `tpp sandbox --seed-count`; a server without it ignores the option, and the
  // rest is loaded through loadSampleData below.
  const h = await server.startSandbox({
    host: '127.0.0.1',
    port: 0,
    dataDir: values['data-dir'],
    database: values.database,
    partners: [{ id: partner, spkiPem: readFileSync(values.pem as string, 'utf8'), name: partner.toLowerCase() }],
    seedCount: stored,
    log,
    requestLog: values.quiet && !values['request-log'] ? undefined : {},
  });
  if (!values.quiet) h.requestLog?.subscribe((e) => process.stderr.write(`${JSON.stringify(e.line())}\n`));
  // --quiet --request-log: what the editor's sandbox process does with each entry (its own exchangePusher: entries
  // gathered, then their whole exchanges, masked, serialised in one IPC message as process.send does, here without the
  // pipe), without the text log. --quiet alone: nothing reads the log, as with `tpp sandbox` without
  // --log json (the control API's journal still keeps its entries).
  else if (values['request-log']) h.requestLog?.subscribe(exchangePusher((msg) => void `${JSON.stringify(msg)}\n`));
  const have = stored > 0 ? await countOf(h, partner) : 0;
  if (have < stored) await h.loadSampleData(partner, stored - have);
  const seedSeconds = (performance.now() - t0) / 1000;
  process.stdout.write(`${JSON.stringify({ origin: h.origin, pid: process.pid, stored: await countOf(h, partner), seedSeconds })}\n`);
  const stop = () => void h.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/**
 * Registrations stored for `partner`, asked through the API (whatever the storage), with node:http: the server already
 * loaded it, while fetch would load undici into the process whose memory the benchmark reports.
 */
async function countOf(h: Handle, partner: string): Promise<number> {
  const token = mint(privateKeyOf(readFileSync(values.key as string, 'utf8')), partner, h.v3BaseUrl);
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    get(`${h.v3BaseUrl}/tire-protection/registrations?pageSize=1`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    }).on('error', reject);
  });
  if (status !== 200) throw new Error(`counting the stored registrations: ${status} ${body}`);
  return (JSON.parse(body) as { totalRecordCount: number }).totalRecordCount;
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
