// json-server (the stateful mock integrators reach for), in its own process, on the same registrations as the
// sandbox: GET /registrations/{id}, GET /registrations?_page=&_limit= (filters: ?invoiceNumber=, ?storeNumber=),
// POST /registrations. In memory, no authentication (json-server has none), no request log. Prints one JSON line
// {origin, pid, stored, seedSeconds} on stdout when ready; SIGTERM stops it.
//   node --import tsx scripts/bench-sandbox/serve-json-server.ts --seed FILE.ndjson
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { parseArgs } from 'node:util';

interface App {
  use(h: unknown): void;
  listen(port: number, host: string, cb: () => void): Server;
}
const jsonServer = require('json-server') as { create(): App; router(db: object): unknown; defaults(o: object): unknown[] };

const { values } = parseArgs({ options: { seed: { type: 'string' } } });
const t0 = performance.now();
const registrations = readFileSync(values.seed as string, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => {
    const r = JSON.parse(l) as Record<string, unknown>;
    return { id: r._id, ...r };
  });
const app = jsonServer.create();
app.use(jsonServer.defaults({ logger: false, noCors: true }));
app.use(jsonServer.router({ registrations }));
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  const seedSeconds = (performance.now() - t0) / 1000;
  process.stdout.write(`${JSON.stringify({ origin: `http://127.0.0.1:${port}`, pid: process.pid, stored: registrations.length, seedSeconds })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
