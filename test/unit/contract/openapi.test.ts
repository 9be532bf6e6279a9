import assert from 'node:assert/strict';
// ajv comes with @seriousme/openapi-schema-validator (its JSON Schema engine).
import Ajv2020 from 'ajv/dist/2020';
import { parse } from 'yaml';
import { runCli } from '../../../src/cli/cli';
import { ENDPOINTS, buildOpenApiDocument } from '../../../src/core/contract';
import { successStatus } from '../../../src/core/sandbox/routes';

type Doc = { paths: Record<string, Record<string, { deprecated?: boolean; requestBody?: unknown; parameters?: { name: string; in: string; required: boolean; schema: { default?: unknown } }[] }>> };

async function validateOpenApi(doc: unknown): Promise<{ valid: boolean; errors?: unknown }> {
  const { Validator } = await import('@seriousme/openapi-schema-validator');
  const v = new Validator();
  return v.validate(doc as never);
}

function capture() {
  let out = '';
  let err = '';
  return {
    io: { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } },
    out: () => out,
    err: () => err,
  };
}

describe('contract: OpenAPI 3.1 document', () => {
  const doc = buildOpenApiDocument('1.2.3') as unknown as Doc & Record<string, unknown>;

  it('is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)', async () => {
    const r = await validateOpenApi(doc);
    assert.ok(r.valid, JSON.stringify(r.errors));
    assert.equal(doc.openapi, '3.1.0');
  });

  it('every component schema compiles as JSON Schema 2020-12 (the OpenAPI 3.1 dialect)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const schemas = (doc.components as { schemas: Record<string, object> }).schemas;
    assert.ok(Object.keys(schemas).length >= 25);
    for (const name of ['V2RegistrationsBody', 'V2ClaimsBody', 'V2SalesBody', 'V2CancellationsBody', 'ErrorBody', 'UnauthorizedBody']) {
      assert.ok(schemas[name], name);
    }
    // Refs are document-relative (#/components/schemas/X): load the components under one base URI.
    ajv.addSchema({ $id: 'https://tpp.invalid/openapi', components: { schemas } });
    for (const name of Object.keys(schemas)) {
      assert.doesNotThrow(() => ajv.compile({ $ref: `https://tpp.invalid/openapi#/components/schemas/${name}` }), name);
    }
    const body = ajv.compile({ $ref: 'https://tpp.invalid/openapi#/components/schemas/V2PostBody' });
    assert.equal(body({ Sales: [] }), false, 'at least one sale');
    assert.equal(body({ Cancellations: [{ ShopID: 'NW', InvoiceNumber: 'I', CancelShopID: 'NW', CancelInvoiceNumber: 'C', TireCancelCount: '4', CancelDate: '2025-04-01' }] }), true);
  });

  it('has an operation for every endpoint of the table', () => {
    for (const def of Object.values(ENDPOINTS)) {
      const oaPath = def.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      const op = doc.paths[oaPath]?.[def.method.toLowerCase()];
      assert.ok(op, `${def.method} ${oaPath}`);
      if (def.body) assert.ok(op.requestBody, `${def.id} body`);
      if (def.deprecated) assert.equal(op.deprecated, true);
      for (const p of def.pathParams) assert.ok(op.parameters?.some((x) => x.in === 'path' && x.name === p));
    }
  });

  it('lists every status of every endpoint with its meaning (404 shop update, 409 v2 POST, 415 with a body, 503 everywhere)', () => {
    type Op = { responses: Record<string, { description: string }> };
    const opOf = (id: keyof typeof ENDPOINTS) => {
      const def = ENDPOINTS[id];
      return (doc.paths[def.path.replace(/:([A-Za-z_]+)/g, '{$1}')] as unknown as Record<string, Op>)[def.method.toLowerCase()]!;
    };
    for (const def of Object.values(ENDPOINTS)) {
      const op = opOf(def.id);
      for (const status of Object.keys(def.responses)) assert.ok(op.responses[Number(status) < (def.sandboxStatus ?? 0) ? '2XX' : status], `${def.id} ${status}`);
      assert.match(op.responses['503']!.description, /^Service Unavailable: Retry later\./, def.id);
    }
    assert.match(opOf('updateShop').responses['404']!.description, /^Not Found: /);
    assert.match(opOf('v2PostRecords').responses['409']!.description, /^Conflict: /);
    assert.match(opOf('createShop').responses['415']!.description, /^Unsupported Media Type: Not in the spec's Errors table/);
    assert.match(opOf('createShop').responses['413']!.description, /^Content Too Large: /);
  });

  it("declares the sandbox's own success answer first: the lowest 2xx, which a mock server (prism mock) answers", () => {
    type Op = { responses: Record<string, { description: string }> };
    const creates = Object.values(ENDPOINTS).filter((d) => d.method === 'POST' && d.responses[201] !== undefined && d.base !== 'v2');
    assert.ok(creates.length >= 4);
    for (const def of Object.values(ENDPOINTS)) {
      const op = (doc.paths[def.path.replace(/:([A-Za-z_]+)/g, '{$1}')] as unknown as Record<string, Op>)[def.method.toLowerCase()]!;
      const success = Object.keys(op.responses).filter((c) => /^2(\d\d|XX)$/.test(c));
      // prism's choice: the 2xx codes sorted as strings ("201" before "2XX"), the first taken.
      const mocked = [...success].sort()[0];
      assert.equal(Number(mocked), successStatus(def), `${def.id}: a mock answers ${mocked}, the sandbox ${successStatus(def)}`);
      assert.equal(Object.keys(op.responses)[0], mocked, `${def.id}: first declared`);
    }
    for (const def of creates) assert.equal(successStatus(def), 201, def.id);
    const folded = (doc.paths['/tire-protection/registrations'] as unknown as Record<string, Op>).post!.responses['2XX'];
    assert.match(folded?.description ?? '', /may answer 200 where the Local sandbox answers 201/);
  });

  it('writes query defaults (pageSize 100, page 1)', () => {
    const params = doc.paths['/tire-protection/registrations']?.get?.parameters ?? [];
    assert.equal(params.find((p) => p.name === 'pageSize')?.schema.default, 100);
    assert.equal(params.find((p) => p.name === 'page')?.schema.default, 1);
    assert.equal(params.find((p) => p.name === 'page')?.required, false);
  });

  it('an invalid document is rejected by the same validator (the test can fail)', async () => {
    const r = await validateOpenApi({ ...doc, paths: { 'no-slash': {} } });
    assert.equal(r.valid, false);
  });
});

describe('cli: tpp openapi', () => {
  it('prints YAML by default, parsing to the same valid document', async () => {
    const c = capture();
    assert.equal(await runCli(['openapi'], c.io), 0);
    const parsed = parse(c.out()) as Record<string, unknown>;
    assert.equal(parsed.openapi, '3.1.0');
    assert.ok((await validateOpenApi(parsed)).valid);
  });
  it('prints JSON with --format json', async () => {
    const c = capture();
    assert.equal(await runCli(['openapi', '--format', 'json'], c.io), 0);
    assert.equal((JSON.parse(c.out()) as { openapi: string }).openapi, '3.1.0');
  });
  it('exits 2 on a bad format or an unknown option, without a stack trace', async () => {
    for (const args of [['openapi', '--format', 'xml'], ['openapi', '--nope']]) {
      const c = capture();
      assert.equal(await runCli(args, c.io), 2);
      assert.match(c.err(), /Usage: tpp openapi/);
      assert.doesNotMatch(c.err(), /\n\s+at /);
    }
  });
});
