// The floor of the sandbox benchmark, in its own process: the least a server can do for the same requests — bare
// node:http, the spec's JWT checks with node:crypto (the partner's public key imported once), and the same queries
// on the same kind of database (PGlite under a data directory, or a PostgreSQL server with --database). Answers the
// sandbox's paths: /api/v3/verify-token, /api/v3/tire-protection/registrations[/{id}] (GET list and by id, POST).
// Prints one JSON line {origin, pid, stored, seedSeconds} on stdout when ready; SIGTERM stops it.
// With --memory, the in-memory floor: the documents in a Map (id -> their JSON text, sent as it is), answering
// verify-token and read by id only — what a read costs when nothing but the token check is left.
//   node --import tsx scripts/bench-sandbox/floor.ts --partner ID --pem FILE --seed FILE.ndjson
//        (--data-dir DIR | --database URL | --memory)
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

/**
 * The floor's SQL, one place to align with the sandbox's real schema and queries (src/core/sandbox/db). `$n` are
 * positional parameters; `position` numbers a partner's registrations densely in creation order.
 */
export const FLOOR_SQL = {
  schema: [
    `CREATE TABLE IF NOT EXISTS registrations (partner text NOT NULL, id text NOT NULL, position bigint GENERATED ALWAYS AS IDENTITY,
       invoice_number text NOT NULL, store_number text NOT NULL, doc jsonb NOT NULL, PRIMARY KEY (partner, id))`,
    'CREATE UNIQUE INDEX IF NOT EXISTS registrations_by_position ON registrations (partner, position)',
    'CREATE INDEX IF NOT EXISTS registrations_by_invoice ON registrations (partner, invoice_number, position)',
    'CREATE INDEX IF NOT EXISTS registrations_by_store ON registrations (partner, store_number, position)',
  ],
  /** After seeding: fresh statistics and visibility map, so that count(*) can be an index-only scan. */
  afterSeed: ['VACUUM ANALYZE registrations'],
  /** $1 partner, $2 a JSON array of documents (each with _id, invoiceNumber, storeNumber). */
  bulkInsert: `INSERT INTO registrations (partner, id, invoice_number, store_number, doc)
       SELECT $1, x->>'_id', coalesce(x->>'invoiceNumber', ''), coalesce(x->>'storeNumber', ''), x
       FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS t(x, o) ORDER BY o`,
  insert: 'INSERT INTO registrations (partner, id, invoice_number, store_number, doc) VALUES ($1, $2, $3, $4, $5)',
  byId: 'SELECT doc FROM registrations WHERE partner = $1 AND id = $2',
  /** Unfiltered page: $2 < position <= $3. */
  page: 'SELECT doc FROM registrations WHERE partner = $1 AND position > $2 AND position <= $3 ORDER BY position',
  /**
   * Unfiltered total. Positions are dense (one partner here, no deletes), so the total is the last position: an index
   * lookup. count(*) is a scan that grows with the table (PGlite, 100,000 rows: ~110 ms, ~32 ms after VACUUM).
   */
  count: 'SELECT coalesce(max(position), 0)::int AS n FROM registrations WHERE partner = $1',
  /** Filtered page: $2 invoice number or null, $3 store number or null, $4 limit, $5 offset. */
  filtered: `SELECT doc FROM registrations WHERE partner = $1 AND ($2::text IS NULL OR invoice_number = $2)
       AND ($3::text IS NULL OR store_number = $3) ORDER BY position LIMIT $4 OFFSET $5`,
  filteredCount: `SELECT count(*)::int AS n FROM registrations WHERE partner = $1 AND ($2::text IS NULL OR invoice_number = $2)
       AND ($3::text IS NULL OR store_number = $3)`,
};

interface Db {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

const { values } = parseArgs({
  options: { partner: { type: 'string' }, pem: { type: 'string' }, seed: { type: 'string' }, 'data-dir': { type: 'string' }, database: { type: 'string' }, memory: { type: 'boolean', default: false } },
});
const partner = values.partner as string;
const publicKey = createPublicKey(readFileSync(values.pem as string, 'utf8'));
let aud = '';

async function open(): Promise<Db> {
  if (values.database) {
    const { Pool } = require('pg') as { Pool: new (o: { connectionString: string; max: number }) => Db };
    const pool = new Pool({ connectionString: values.database, max: 8 });
    await pool.query('DROP TABLE IF EXISTS registrations');
    return pool;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  return (await PGlite.create(values['data-dir'] as string)) as unknown as Db;
}

/** The spec's checks (Authentication): ES256, iss = the partner, aud = this server's /api/v3, iat/exp in seconds. */
function authorized(req: IncomingMessage): boolean {
  const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
  const parts = m?.[1]?.split('.');
  if (!parts || parts.length !== 3) return false;
  try {
    const header = JSON.parse(Buffer.from(parts[0] as string, 'base64url').toString()) as { alg?: string };
    const claims = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString()) as { iss?: string; aud?: string; iat?: number; exp?: number };
    const now = Math.floor(Date.now() / 1000);
    if (header.alg !== 'ES256' || claims.iss !== partner || claims.aud !== aud) return false;
    if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number' || claims.iat > now + 60 || claims.exp <= now || claims.exp - claims.iat > 7200) return false;
    return verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(parts[2] as string, 'base64url'));
  } catch {
    return false;
  }
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

/** The in-memory floor's documents: id -> the document's JSON text as seeded. */
const documents = new Map<string, string>();

async function handle(db: Db | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!authorized(req)) return send(res, 401, { message: 'Unauthorized' });
  const url = new URL(req.url ?? '/', aud);
  const path = url.pathname;
  if (path === '/api/v3/verify-token') return send(res, 200, { partner_id: partner, name: partner.toLowerCase() });
  const one = /^\/api\/v3\/tire-protection\/registrations\/([^/]+)$/.exec(path);
  if (!db) {
    const text = one && req.method === 'GET' ? documents.get(decodeURIComponent(one[1] as string)) : undefined;
    if (text === undefined) return send(res, 404, { message: 'Not found' });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
    return;
  }
  if (one && req.method === 'GET') {
    const { rows } = await db.query<{ doc: unknown }>(FLOOR_SQL.byId, [partner, decodeURIComponent(one[1] as string)]);
    return rows[0] ? send(res, 200, rows[0].doc) : send(res, 404, { message: 'Not found' });
  }
  if (path !== '/api/v3/tire-protection/registrations') return send(res, 404, { message: 'Not found' });
  if (req.method === 'POST') {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const doc = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
    const id = randomBytes(12).toString('hex');
    await db.query(FLOOR_SQL.insert, [partner, id, String(doc.invoiceNumber ?? ''), String(doc.storeNumber ?? ''), JSON.stringify({ _id: id, ...doc })]);
    return send(res, 201, { id });
  }
  const pageSize = Math.min(1000, Number(url.searchParams.get('pageSize') ?? 100));
  const page = Number(url.searchParams.get('page') ?? 1);
  const inv = url.searchParams.get('invoiceNumber');
  const store = url.searchParams.get('storeNumber');
  const [rows, total] =
    inv === null && store === null
      ? await Promise.all([db.query<{ doc: unknown }>(FLOOR_SQL.page, [partner, (page - 1) * pageSize, page * pageSize]), db.query<{ n: number }>(FLOOR_SQL.count, [partner])])
      : await Promise.all([
          db.query<{ doc: unknown }>(FLOOR_SQL.filtered, [partner, inv, store, pageSize, (page - 1) * pageSize]),
          db.query<{ n: number }>(FLOOR_SQL.filteredCount, [partner, inv, store]),
        ]);
  const n = total.rows[0]?.n ?? 0;
  send(res, 200, { page, pageSize, totalRecordCount: n, totalPages: Math.ceil(n / pageSize), results: rows.rows.map((r) => r.doc) });
}

async function seed(db: Db): Promise<number> {
  for (const s of FLOOR_SQL.schema) await db.query(s);
  let batch: string[] = [];
  let stored = 0;
  const flush = async () => {
    if (!batch.length) return;
    await db.query(FLOOR_SQL.bulkInsert, [partner, `[${batch.join(',')}]`]);
    stored += batch.length;
    batch = [];
  };
  for await (const line of createInterface({ input: createReadStream(values.seed as string) })) {
    if (!line) continue;
    batch.push(line);
    if (batch.length >= 2000) await flush();
  }
  await flush();
  for (const s of FLOOR_SQL.afterSeed) await db.query(s);
  return stored;
}

/** Loads the seed file into {@link documents}; returns how many. */
async function seedMemory(): Promise<number> {
  for await (const line of createInterface({ input: createReadStream(values.seed as string) })) {
    if (line) documents.set((JSON.parse(line) as { _id: string })._id, line);
  }
  return documents.size;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const db = values.memory ? undefined : await open();
  const stored = db ? await seed(db) : await seedMemory();
  const seedSeconds = (performance.now() - t0) / 1000;
  const server = createServer((req, res) => {
    handle(db, req, res).catch((err: unknown) => send(res, 500, { message: (err as Error).message }));
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    aud = `http://127.0.0.1:${port}/api/v3`;
    process.stdout.write(`${JSON.stringify({ origin: `http://127.0.0.1:${port}`, pid: process.pid, stored, seedSeconds })}\n`);
  });
  process.on('SIGTERM', () => process.exit(0));
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
