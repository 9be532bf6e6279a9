import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, makePartner, removeDir, scratchDir, startSandbox, tpp, type TestPartner } from './harness';
import { BIN, mint, send, spectral, startPrism, type Exchange } from './openapiTools';

// The OpenAPI export checked with the tools integrators use (pinned devDependencies, nothing downloaded): Spectral
// (spectral:oas, every rule, .spectral.yaml) with 0 errors; Prism as a validating proxy in front of `tpp sandbox` with 0
// violations over every endpoint the sandbox answers, 400, 401, 404 and 409 included; `prism mock` answering every
// operation; openapi-typescript types that type-check against the request-body examples. One document per interface.

const INTERFACES = ['v3', 'v2', 'eligibility'] as const;
type Iface = (typeof INTERFACES)[number];
type Op = { parameters?: { name: string; in: string; required?: boolean; schema?: { enum?: string[] } }[]; requestBody?: { content: { 'application/json': { examples?: Record<string, { value: unknown }> } } } };
type Doc = { paths: Record<string, Record<string, Op>> };
const METHODS = ['get', 'post', 'patch'] as const;
const ELIGIBILITY_TOKEN = 'samples-eligibility-token';

/** The request-body example of `kind` in `doc` at `method path` (a deep copy). */
function example<T = Record<string, unknown>>(doc: Doc, path: string, method: string, kind: string): T {
  const ex = doc.paths[path]?.[method]?.requestBody?.content['application/json'].examples?.[kind];
  assert.ok(ex, `example ${kind} at ${method} ${path}`);
  return structuredClone(ex.value) as T;
}

describe('OpenAPI export with Spectral, Prism and openapi-typescript', function () {
  this.timeout(300000);
  let dir: string;
  let partner: TestPartner;
  const docs = {} as Record<Iface, Doc>;
  const files = {} as Record<Iface, string>;

  before(function () {
    if (!existsSync(CLI)) {
      console.log(`      skipped: ${CLI} is not built (npm run build; npm test builds first)`);
      this.skip();
    }
    if (!existsSync(join(BIN, 'prism')) || !existsSync(join(BIN, 'spectral')) || !existsSync(join(BIN, 'openapi-typescript'))) {
      console.log('      skipped: prism, spectral or openapi-typescript is not installed (npm ci installs the pinned devDependencies)');
      this.skip();
    }
    dir = scratchDir();
    partner = makePartner(dir, 'OPENAPI-P256', 'P-256');
    for (const which of INTERFACES) {
      const out = tpp(['openapi', '--interface', which, '--format', 'json']).stdout;
      files[which] = join(dir, `partner-api-${which}.json`);
      writeFileSync(files[which], out);
      docs[which] = JSON.parse(out) as Doc;
    }
  });

  after(() => {
    if (dir) removeDir(dir);
  });

  for (const which of INTERFACES) {
    it(`Spectral: the ${which} document has no error`, () => {
      const r = spectral(files[which]);
      assert.deepEqual(r.errors, [], r.all.join('\n'));
    });
  }

  it('Prism validating proxy in front of tpp sandbox: every answer matches its document (v3, v2, eligibility)', async () => {
    const sandbox = await startSandbox([partner], ['--eligibility-token', ELIGIBILITY_TOKEN]);
    const origin = new URL(sandbox.base).origin;
    const proxies = await Promise.all([
      startPrism(['proxy', files.v3, sandbox.base, '--errors']),
      startPrism(['proxy', files.v2, origin, '--errors']),
      startPrism(['proxy', files.eligibility, `${origin}/api/v1`, '--errors']),
    ]);
    try {
      const [p3, p2, pe] = proxies.map((p) => p.url) as [string, string, string];
      const seen: Exchange[] = [];
      const expect = async (want: number | number[], x: Promise<Exchange>): Promise<Exchange> => {
        const r = await x;
        seen.push(r);
        const ok = Array.isArray(want) ? want.includes(r.status) : r.status === want;
        assert.ok(ok && !r.violation, `${r.label}: ${r.status} (wanted ${String(want)}) ${r.violation} ${JSON.stringify(r.body)}`);
        return r;
      };
      const v3 = async (label: string, method: string, path: string, body?: unknown) => send(p3, label, method, path, await mint(partner.privateKeyFile, partner.id, sandbox.base), body);
      const v2 = async (label: string, method: string, query: string, body?: unknown) =>
        send(p2, label, method, `/v2/partners/${partner.id}${query}`, await mint(partner.privateKeyFile, partner.id, origin), body);
      const created = [200, 201];
      const d = docs.v3;

      await expect(200, v3('verify', 'GET', '/verify-token'));
      await expect(401, send(p3, 'verify, bad token', 'GET', '/verify-token', 'not-a-jwt'));

      // Tire-protection registrations, claims, cancellations.
      const reg = example(d, '/tire-protection/registrations', 'post', 'tire-protection-registration');
      const id = ((await expect(created, v3('create tire-protection registration', 'POST', '/tire-protection/registrations', reg))).body as { id: string }).id;
      await expect(409, v3('create again, duplicate invoice', 'POST', '/tire-protection/registrations', reg));
      await expect(200, v3('read', 'GET', `/tire-protection/registrations/${encodeURIComponent(id)}`));
      await expect(200, v3('metadata', 'GET', `/tire-protection/registrations/${encodeURIComponent(id)}/metadata`));
      await expect(200, v3('list by invoice', 'GET', `/tire-protection/registrations?invoiceNumber=${encodeURIComponent(String(reg.invoiceNumber))}`));
      await expect(400, v3('list, pageSize over the limit', 'GET', '/tire-protection/registrations?pageSize=100000'));
      await expect(404, v3('read unknown', 'GET', '/tire-protection/registrations/unknown-registration'));
      const claim = example(d, '/tire-protection/registrations/{id}/claims', 'post', 'tire-protection-claim');
      await expect(created, v3('claim', 'POST', `/tire-protection/registrations/${encodeURIComponent(id)}/claims`, claim));
      await expect(404, v3('claim, unknown registration', 'POST', '/tire-protection/registrations/unknown-registration/claims', claim));
      const cancel = example(d, '/tire-protection/registrations/{id}', 'patch', 'cancellation');
      await expect(204, v3('cancel', 'PATCH', `/tire-protection/registrations/${encodeURIComponent(id)}`, cancel));
      await expect(409, v3('cancel again', 'PATCH', `/tire-protection/registrations/${encodeURIComponent(id)}`, cancel));
      await expect(409, v3('claim on a cancelled registration', 'POST', `/tire-protection/registrations/${encodeURIComponent(id)}/claims`, claim));
      const reg2 = { ...reg, invoiceNumber: `${String(reg.invoiceNumber)}-2` };
      await expect(created, v3('create a second', 'POST', '/tire-protection/registrations', reg2));
      await expect(204, v3('cancel by invoice', 'PATCH', `/tire-protection/registrations?invoiceNumber=${encodeURIComponent(reg2.invoiceNumber)}`, cancel));

      // Registrations, earlier revision.
      const old = example(d, '/registrations', 'post', 'registration');
      const oldId = ((await expect(created, v3('create (earlier revision)', 'POST', '/registrations', old))).body as { id: string }).id;
      await expect(409, v3('create again (earlier revision)', 'POST', '/registrations', old));
      await expect(200, v3('read (earlier revision)', 'GET', `/registrations/${encodeURIComponent(oldId)}`));
      await expect(200, v3('list (earlier revision)', 'GET', '/registrations?pageSize=2&page=1'));
      await expect(404, v3('read unknown (earlier revision)', 'GET', '/registrations/unknown-registration'));
      await expect(204, v3('cancel by invoice (earlier revision)', 'PATCH', `/registrations?invoiceNumber=${encodeURIComponent(String(old.invoiceNumber))}`, cancel));
      await expect(409, v3('cancel again by id (earlier revision)', 'PATCH', `/registrations/${encodeURIComponent(oldId)}`, cancel));

      // Shops, parts, transactions.
      const shop = example(d, '/tire-protection/shops', 'post', 'shop');
      const uniqueId = encodeURIComponent(String(shop.uniqueId));
      await expect(204, v3('create shop', 'POST', '/tire-protection/shops', shop));
      await expect(409, v3('create shop again', 'POST', '/tire-protection/shops', shop));
      await expect(200, v3('shop lookup by phone', 'GET', `/tire-protection/shops/lookup?query=${encodeURIComponent(String(shop.phone))}`));
      await expect(404, v3('shop lookup, no result', 'GET', '/tire-protection/shops/lookup?query=%2B1%20000%20000%200000'));
      await expect(204, v3('update shop', 'PATCH', `/tire-protection/shops/${uniqueId}`, example(d, '/tire-protection/shops/{uniqueId}', 'patch', 'shop-update')));
      await expect(404, v3('update unknown shop', 'PATCH', '/tire-protection/shops/unknown-shop', example(d, '/tire-protection/shops/{uniqueId}', 'patch', 'shop-update')));
      await expect(204, v3('part', 'POST', `/tire-protection/shops/${uniqueId}/parts`, example(d, '/tire-protection/shops/{uniqueId}/parts', 'post', 'part')));
      await expect(204, v3('transaction', 'POST', '/tire-protection/transactions', example(d, '/tire-protection/transactions', 'post', 'transaction')));

      // Motor club.
      const mc = example(d, '/motor-club/registrations', 'post', 'motor-club-registration');
      const mcId = ((await expect(created, v3('create motor-club registration', 'POST', '/motor-club/registrations', mc))).body as { id: string }).id;
      await expect(409, v3('create motor-club again', 'POST', '/motor-club/registrations', mc));
      await expect(200, v3('read motor-club', 'GET', `/motor-club/registrations/${encodeURIComponent(mcId)}`));
      await expect(200, v3('list motor-club', 'GET', '/motor-club/registrations'));
      await expect(404, v3('read unknown motor-club', 'GET', '/motor-club/registrations/unknown-registration'));
      const customer = example(d, '/motor-club/registrations/{id}', 'patch', 'motor-club-customer');
      await expect(204, v3('customer by id', 'PATCH', `/motor-club/registrations/${encodeURIComponent(mcId)}`, customer));
      await expect(204, v3('customer by invoice', 'PATCH', `/motor-club/registrations?invoiceNumber=${encodeURIComponent(String(mc.invoiceNumber))}`, customer));
      await expect(204, v3('cancel motor-club by invoice', 'PATCH', `/motor-club/registrations?invoiceNumber=${encodeURIComponent(String(mc.invoiceNumber))}`, cancel));
      await expect(409, v3('cancel motor-club again', 'PATCH', `/motor-club/registrations/${encodeURIComponent(mcId)}`, cancel));

      // Version 2 records, through their own document and server.
      const v2d = docs.v2;
      const v2Path = '/v2/partners/{company_name}';
      const regs = example<{ Registrations: Record<string, unknown>[] }>(v2d, v2Path, 'post', 'v2-registrations');
      const r0 = regs.Registrations[0]!;
      await expect(created, v2('v2 registrations', 'POST', '', regs));
      const q = `?partnerid=${encodeURIComponent(partner.id)}&shopid=${encodeURIComponent(String(r0.ShopID))}&invoicenumber=${encodeURIComponent(String(r0.InvoiceNumber))}`;
      await expect(200, v2('v2 read registrations', 'GET', `${q}&rec=registrations`));
      await expect(200, v2('v2 registration status', 'GET', `${q}&rec=registrationstatus`));
      const claims = example<{ Claims: Record<string, unknown>[] }>(v2d, v2Path, 'post', 'v2-claims');
      for (const c of claims.Claims) Object.assign(c, { OrgID: r0.OrgID, ShopID: r0.ShopID, InvoiceNumber: r0.InvoiceNumber, VIN: r0.VIN });
      await expect(created, v2('v2 claims', 'POST', '', claims));
      await expect(200, v2('v2 read claims', 'GET', `${q}&rec=claims`));
      await expect(created, v2('v2 sales', 'POST', '', example(v2d, v2Path, 'post', 'v2-sales')));
      await expect(200, v2('v2 read sales', 'GET', `?rec=sales`));
      // Everyday prices pass Prism's validator (a `multipleOf: 0.01` would fail 19.99 there: it divides binary floats);
      // a third decimal reaches the sandbox, whose 400 is declared (docs/contract.md, money).
      const prices = structuredClone(regs);
      Object.assign(prices.Registrations[0]!, { InvoiceNumber: `${String(r0.InvoiceNumber)}-P`, TPPPrice: 19.99, TirePrice: 1.15, TireCost: 0.29 });
      await expect(created, v2('v2 registrations, everyday prices', 'POST', '', prices));
      const cents = structuredClone(regs);
      Object.assign(cents.Registrations[0]!, { InvoiceNumber: `${String(r0.InvoiceNumber)}-C`, TPPPrice: 24.995 });
      await expect(400, v2('v2 registrations, money with three decimals', 'POST', '', cents));
      await expect(401, send(p2, 'v2, bad token', 'GET', `/v2/partners/${partner.id}?rec=sales`, 'not-a-jwt'));

      // The retired eligibility lookup, with its dedicated token.
      await expect(200, send(pe, 'eligibility by vin', 'GET', '/vehicle-lookup/samples/rsa/eligible?vin=1HGCV1F34KA012345', ELIGIBILITY_TOKEN));
      await expect(200, send(pe, 'eligibility by plate', 'GET', '/vehicle-lookup/samples/rsa/eligible?licensePlate=LMN4821&state=TX', ELIGIBILITY_TOKEN));
      await expect(400, send(pe, 'eligibility, no query', 'GET', '/vehicle-lookup/samples/rsa/eligible', ELIGIBILITY_TOKEN));
      await expect(401, send(pe, 'eligibility, partner token', 'GET', '/vehicle-lookup/samples/rsa/eligible?vin=1HGCV1F34KA012345', await mint(partner.privateKeyFile, partner.id, sandbox.base)));

      const statuses = new Set(seen.map((x) => x.status));
      for (const s of [200, 204, 400, 401, 404, 409]) assert.ok(statuses.has(s), `some exchange answered ${s}`);
    } finally {
      await Promise.all(proxies.map((p) => p.stop()));
      await sandbox.stop();
    }
  });

  it('Prism validating proxy: a 429 of a rate-limited sandbox, with its Retry-After, matches the document', async () => {
    const sandbox = await startSandbox([partner], ['--rate-limit', '1']);
    const proxy = await startPrism(['proxy', files.v3, sandbox.base, '--errors']);
    try {
      const tokens = await Promise.all(Array.from({ length: 6 }, () => mint(partner.privateKeyFile, partner.id, sandbox.base)));
      const answers = await Promise.all(tokens.map((t, i) => send(proxy.url, `verify ${i}`, 'GET', '/verify-token', t)));
      const limited = answers.filter((a) => a.status === 429);
      assert.ok(limited.length > 0, `some answer is 429: ${answers.map((a) => a.status).join(', ')}`);
      for (const a of answers) assert.ok([200, 429].includes(a.status) && !a.violation, `${a.label}: ${a.status} ${a.violation}`);
      for (const a of limited) assert.match(a.headers.get('retry-after') ?? '', /^\d+$/, `${a.label}: Retry-After`);
    } finally {
      await proxy.stop();
      await sandbox.stop();
    }
  });

  it('prism mock -d (generated answers) answers the reads and lists of version 3 every time', async () => {
    const mock = await startPrism(['mock', '-d', files.v3]);
    try {
      const reads = ['/registrations', '/registrations/r1', '/tire-protection/registrations', '/tire-protection/registrations/r1', '/tire-protection/registrations/r1/metadata', '/motor-club/registrations', '/motor-club/registrations/r1'];
      for (const path of reads) {
        for (let i = 0; i < 8; i++) {
          const r = await send(mock.url, `mock -d GET ${path}`, 'GET', path, 'x');
          assert.ok(r.status === 200 && !r.violation, `${r.label}: ${r.status} ${r.violation} ${JSON.stringify(r.body).slice(0, 300)}`);
        }
      }
    } finally {
      await mock.stop();
    }
  });

  it('prism mock answers every operation of each document', async () => {
    for (const which of INTERFACES) {
      const mock = await startPrism(['mock', files[which]]);
      try {
        for (const [path, item] of Object.entries(docs[which].paths)) {
          for (const method of METHODS) {
            const op = item[method];
            if (!op) continue;
            const query = new URLSearchParams();
            let url = path;
            for (const p of op.parameters ?? []) {
              const value = p.schema?.enum?.[0] ?? 'x1';
              if (p.in === 'path') url = url.replace(`{${p.name}}`, value);
              else if (p.required) query.set(p.name, value);
            }
            if (which === 'eligibility') query.set('vin', '1HGCV1F34KA012345');
            const examples = Object.values(op.requestBody?.content['application/json'].examples ?? {});
            for (const body of examples.length ? examples.map((e) => e.value) : [undefined]) {
              const r = await send(mock.url, `${which} ${method} ${path}`, method.toUpperCase(), `${url}${query.size ? `?${query}` : ''}`, 'x', body);
              assert.ok(r.status >= 200 && r.status < 300 && !r.violation, `${r.label}: ${r.status} ${r.violation} ${JSON.stringify(r.body)}`);
            }
          }
        }
      } finally {
        await mock.stop();
      }
    }
  });

  it('openapi-typescript: the generated types of each document type-check against its request-body examples', () => {
    const lines = ['/* Generated by the OpenAPI samples test. */'];
    for (const which of INTERFACES) {
      const types = join(dir, `types-${which}.ts`);
      const r = spawnSync(join(BIN, 'openapi-typescript'), [files[which], '-o', types], { encoding: 'utf8', timeout: 120000 });
      assert.equal(r.status, 0, r.stderr);
      lines.push(`import type { paths as ${which}Paths } from './types-${which}';`);
    }
    lines.push(`type BodyOf<P, M extends keyof P> = NonNullable<P[M] extends { requestBody?: infer R } ? R : never> extends { content: { 'application/json': infer B } } ? B : never;`);
    let n = 0;
    for (const which of INTERFACES) {
      for (const [path, item] of Object.entries(docs[which].paths)) {
        for (const method of METHODS) {
          for (const [kind, ex] of Object.entries(item[method]?.requestBody?.content['application/json'].examples ?? {})) {
            lines.push(`export const example${n++}: BodyOf<${which}Paths[${JSON.stringify(path)}], ${JSON.stringify(method)}> = ${JSON.stringify(ex.value)}; // ${kind}`);
          }
        }
      }
    }
    assert.ok(n >= 14, 'every payload kind has an example');
    // A wrong body must not type-check: proves the check can fail.
    lines.push(`// @ts-expect-error tires is an array\nexport const wrong: BodyOf<v3Paths['/tire-protection/registrations'], 'post'> = { tires: 'four' };`);
    writeFileSync(join(dir, 'examples.ts'), lines.join('\n') + '\n');
    const tsc = spawnSync(process.execPath, [join(BIN, '../typescript/bin/tsc'), '--noEmit', '--strict', '--target', 'ES2022', '--module', 'preserve', '--moduleResolution', 'bundler', '--skipLibCheck', join(dir, 'examples.ts')], { encoding: 'utf8', timeout: 180000 });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  });
});
