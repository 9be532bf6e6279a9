import { generateKeyPairSync, KeyObject, sign } from 'node:crypto';
import { startSandbox, SandboxHandle, SandboxOptions } from '../../../src/core/sandbox/server';

/**
 * Test helpers of the Local sandbox: ECDSA keys and JWTs minted with Node's crypto (an implementation
 * independent of the jose library the server verifies with), and a small HTTP client over fetch.
 */

export type Alg = 'ES256' | 'ES384' | 'ES512';
const CURVE: Record<Alg, string> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };
const HASH: Record<Alg, string> = { ES256: 'sha256', ES384: 'sha384', ES512: 'sha512' };

export interface TestKey {
  readonly alg: Alg;
  readonly privateKey: KeyObject;
  readonly spkiPem: string;
}

/** A fresh key pair for `alg`'s curve. */
export function newKey(alg: Alg = 'ES256'): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: CURVE[alg] });
  return { alg, privateKey, spkiPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** Claims and header overrides of {@link mint}; times are Unix seconds. */
export interface MintOptions {
  iss?: string | number;
  aud?: string | string[];
  iat?: number;
  exp?: number;
  /** Header fields (alg defaults to the key's, typ to JWT); undefined values are left out. */
  header?: Record<string, unknown>;
  /** Sign with this digest/curve instead of the key's own (alg mismatch tests). */
  signAlg?: Alg;
  /** Claims to drop. */
  omit?: string[];
}

/** Mints an ES256/384/512 JWT with node:crypto (IEEE P1363 signature encoding as JWS requires). */
export function mint(key: TestKey, opts: MintOptions = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const header: Record<string, unknown> = { alg: key.alg, typ: 'JWT', ...opts.header };
  for (const k of Object.keys(header)) if (header[k] === undefined) delete header[k];
  const payload: Record<string, unknown> = { iss: opts.iss, aud: opts.aud, iat: opts.iat ?? now, exp: opts.exp ?? now + 300 };
  for (const k of opts.omit ?? []) delete payload[k];
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  const sig = sign(HASH[opts.signAlg ?? key.alg], Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${b64url(sig)}`;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when empty/not JSON. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A partner identity bound to a running sandbox: signs each request like a real client. */
export class Client {
  constructor(
    readonly sb: SandboxHandle,
    readonly partnerId: string,
    readonly key: TestKey,
  ) {}

  /** Clock of the minted tokens, milliseconds (set by tests that move the sandbox clock). */
  now: () => number = Date.now;

  /** Token for the v3 base (aud = v3BaseUrl) or v2 (aud = origin). */
  token(base: 'v3' | 'v2' = 'v3', opts: MintOptions = {}): string {
    const t = Math.floor(this.now() / 1000);
    return mint(this.key, { iss: this.partnerId, aud: base === 'v3' ? this.sb.v3BaseUrl : this.sb.v2BaseUrl, iat: t, exp: t + 300, ...opts });
  }

  /** Calls `path` under the v3 base (or the origin for paths starting with /v2 or /api). */
  async call(method: string, path: string, body?: unknown, init: { token?: string | null; rawBody?: string; contentType?: string } = {}): Promise<Reply> {
    const isV3 = !path.startsWith('/v2/') && !path.startsWith('/api/');
    const url = (isV3 ? this.sb.v3BaseUrl : this.sb.origin) + path;
    const headers: Record<string, string> = {};
    const token = init.token === undefined ? this.token(isV3 ? 'v3' : 'v2') : init.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (init.rawBody !== undefined) payload = init.rawBody;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
    return request(method, url, headers, payload);
  }
}

/** A plain HTTP request; never throws on a status. */
export async function request(method: string, url: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/**
 * The first embedded database of a process compiles PGlite's WebAssembly and runs initdb (seconds on a busy
 * machine); later ones load the process's migrated template in well under a second. Pay that once, before the
 * tests, with its own generous timeout, so that no test's own timeout has to cover it.
 */
if (typeof before === 'function') {
  before(async function () {
    this.timeout(180_000);
    await (await startSandbox({})).close();
  });
}

/** A storage back end the conformance suites run against (docs/sandbox.md, Storage). */
export interface Backend {
  readonly name: string;
  /** Options of a fresh, empty sandbox on this back end. */
  options(): Promise<Pick<SandboxOptions, 'database'>>;
}

const POSTGRES_URL = process.env.TPP_TEST_DATABASE_URL;
const databases: string[] = [];

/** A new empty database on the test PostgreSQL server; dropped at the end of the run. */
async function freshDatabase(adminUrl: string): Promise<string> {
  const { Client: PgClient } = await import('pg');
  const name = `tpp_test_${process.pid}_${databases.length}_${Date.now().toString(36)}`;
  const admin = new PgClient({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  databases.push(name);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** PGlite always; the PostgreSQL server too when TPP_TEST_DATABASE_URL names one (.ci/run starts one). */
export const BACKENDS: readonly Backend[] = [
  { name: 'PGlite', options: async () => ({}) },
  ...(POSTGRES_URL ? [{ name: 'PostgreSQL server', options: async () => ({ database: await freshDatabase(POSTGRES_URL) }) }] : []),
];
if (!POSTGRES_URL && typeof describe === 'function') {
  describe('Local sandbox on a PostgreSQL server', () => {
    it('runs the conformance suites on PostgreSQL too (skipped: TPP_TEST_DATABASE_URL is not set; .ci/run starts a server and sets it)');
  });
}
if (POSTGRES_URL && typeof after === 'function') {
  after(async function () {
    this.timeout(60_000);
    const { Client: PgClient } = await import('pg');
    const admin = new PgClient({ connectionString: POSTGRES_URL });
    await admin.connect();
    for (const name of databases.splice(0)) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  });
}

/** A fresh database on the test PostgreSQL server; without one, the calling test is skipped, saying why. */
export async function postgresDatabaseOrSkip(test: Mocha.Context): Promise<string> {
  const postgres = BACKENDS.find((b) => b.name === 'PostgreSQL server');
  if (!postgres) {
    console.log('      (skipped: TPP_TEST_DATABASE_URL is not set; .ci/run starts a server and sets it)');
    test.skip();
  }
  return (await (postgres as Backend).options()).database as string;
}

/** Sandboxes started by {@link startWith} and not yet closed: closed at the end of the run even when a test failed. */
const open = new Set<SandboxHandle>();
if (typeof after === 'function') {
  after(async () => {
    for (const sb of open) await sb.close().catch(() => undefined);
  });
}

/** Closes `sb` at the end of the run if the test did not (a failed assertion must not leave the run hanging). */
export function track(sb: SandboxHandle): SandboxHandle {
  open.add(sb);
  return sb;
}

/** Starts a sandbox with `n` partners (keys ES256 unless given) and returns it with one client per partner. */
export async function startWith(opts: SandboxOptions = {}, algs: Alg[] = ['ES256']): Promise<{ sb: SandboxHandle; clients: Client[] }> {
  const keys = algs.map((a) => newKey(a));
  const started = await startSandbox({ ...opts, partners: [...(opts.partners ?? []), ...keys.map((k, i) => ({ id: `P${1001 + i}`, spkiPem: k.spkiPem, name: `partner${i + 1}` }))] });
  open.add(started);
  const sb: SandboxHandle = {
    ...started,
    close: async () => {
      open.delete(started);
      await started.close();
    },
  };
  return { sb, clients: keys.map((k, i) => new Client(sb, `P${1001 + i}`, k)) };
}

/** A valid tire-protection registration body. */
export function tpRegistration(invoiceNumber: string, tires = 4, enrollDate = new Date().toISOString().slice(0, 10)): Record<string, unknown> {
  return {
    product_id: 'tire-protection',
    invoiceNumber,
    enrollDate,
    customer: { name: 'Ava Garcia', email: 'ava@example.com' },
    vehicle: { year: 2021, make: 'Toyota', model: 'RAV4' },
    tires: Array.from({ length: tires }, () => ({ make: 'Michelin', model: 'Defender2', size: '225/65R17', retailPrice: 189.99 })),
  };
}

/** A valid earlier-revision registration body. */
export function registration(invoiceNumber: string): Record<string, unknown> {
  return {
    product_id: 'tire-protection',
    invoiceNumber,
    enrollDate: new Date().toISOString().slice(0, 10),
    customer: { name: 'Liam Smith', email: 'liam@example.com', address: { line1: '1 Main St', city: 'Austin', state: 'TX', zip: '73301' } },
    tires: [{ make: 'Goodyear', model: 'Assurance', size: '235/60R18', retailPrice: 201 }],
    vehicle: { year: 2019, make: 'Honda', model: 'Civic' },
  };
}

/** A valid v3 claim body for `n` tires. */
export function claim(n = 1): Record<string, unknown> {
  return {
    serviceInvoiceNumber: 'SVC-1',
    serviceInvoiceDate: new Date().toISOString().slice(0, 10),
    vehicleMileage: 12000,
    damageReason: 'Puncture',
    damageDescription: 'Nail in sidewall',
    authorizedAmount: 150,
    tires: Array.from({ length: n }, () => ({ original: { make: 'Michelin', model: 'Defender2', size: '225/65R17' }, replacement: { make: 'Michelin', model: 'Defender2', size: '225/65R17' } })),
  };
}

/** A valid v2 registration record. */
export function v2Registration(shopId: string, invoiceNumber: string, tires = 4): Record<string, unknown> {
  return {
    ShopID: shopId,
    InvoiceNumber: invoiceNumber,
    PlanEnrollDate: new Date().toISOString().slice(0, 10),
    EmployeeID: 'E1',
    CustomerID: 'C1',
    TiresCovered: String(tires),
    TPPPrice: '24.99',
    TireBrand: 'Michelin',
    TireSize: '225/65R17',
    TirePrice: 189.99,
    TireCost: 120,
    TireDOT1: 'DOT123',
  };
}

/**
 * The waits of a sandbox's injected faults (SandboxOptions.sleep) in the test's hands: each is recorded with the
 * milliseconds asked for and lasts until the test releases it (with `auto`, it ends at once). A test asserts what was
 * held, for how long it was asked and what came first, never how long anything took.
 */
export class FaultWaits {
  readonly asked: { readonly ms: number; release(): void }[] = [];
  private readonly listeners: (() => void)[] = [];
  constructor(private readonly auto = false) {}

  readonly sleep = (ms: number): Promise<void> =>
    new Promise<void>((release) => {
      this.asked.push({ ms, release });
      if (this.auto) release();
      for (const l of this.listeners.splice(0)) l();
    });

  /** The wait number `n` (0-based), once the sandbox has asked for it. */
  async nth(n: number): Promise<{ readonly ms: number; release(): void }> {
    while (this.asked.length <= n) await new Promise<void>((r) => this.listeners.push(r));
    return this.asked[n]!;
  }
}
