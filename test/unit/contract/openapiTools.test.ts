import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020';
import { z } from 'zod';
import { runCli } from '../../../src/cli/cli';
import { ENDPOINTS, OPENAPI_INTERFACES, PAYLOAD_KINDS, buildOpenApiDocument, type OpenApiInterface } from '../../../src/core/contract';
import { toJsonSchema } from '../../../src/core/contract/toJsonSchema';
import { exampleBodies } from '../../../src/core/variables/exampleBodies';

// The OpenAPI export as integrators' tools read it (Spectral, Prism, type generators): schemas every validator reads
// the same way, a description on every operation, request-body examples from examples/, one document per interface.

type Op = { operationId: string; description?: string; tags: string[]; requestBody?: { content: Record<string, { schema: object; examples?: Record<string, { value: unknown }> }> } };
type Doc = { servers: { url: string }[]; paths: Record<string, Record<string, Op> & { servers?: unknown }>; components: { schemas: Record<string, object> }; info: Record<string, unknown>; externalDocs?: { url: string }; tags: { name: string }[] };
const METHODS = ['get', 'post', 'patch', 'put', 'delete'];

function operations(doc: Doc): [string, string, Op][] {
  return Object.entries(doc.paths).flatMap(([p, item]) => METHODS.filter((m) => item[m]).map((m) => [p, m, item[m] as Op] as [string, string, Op]));
}

/** Every node of a JSON value, with its path. */
function* nodes(v: unknown, path: string[] = []): Generator<[string[], Record<string, unknown>]> {
  if (Array.isArray(v)) for (const [i, x] of v.entries()) yield* nodes(x, [...path, String(i)]);
  else if (v !== null && typeof v === 'object') {
    yield [path, v as Record<string, unknown>];
    for (const [k, x] of Object.entries(v)) yield* nodes(x, [...path, k]);
  }
}

function capture() {
  let out = '';
  let err = '';
  return { io: { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } }, out: () => out, err: () => err };
}

const examples = exampleBodies();
const docOf = (which: OpenApiInterface) => buildOpenApiDocument('1.2.3', { interface: which, examples }) as unknown as Doc;

describe('contract: OpenAPI export for integrators\' tools', () => {
  const all = docOf('all');

  it('writes a tuple of numbers as items {type: number} with minItems/maxItems 2, never prefixItems or items: false', () => {
    const coords = [...nodes(all)].find(([p]) => p.at(-1) === 'coordinates')?.[1];
    assert.ok(coords, 'location.coordinates is in the document');
    assert.deepEqual({ items: coords.items, minItems: coords.minItems, maxItems: coords.maxItems }, { items: { type: 'number' }, minItems: 2, maxItems: 2 });
    for (const [path, node] of nodes(all)) {
      assert.equal(node.prefixItems, undefined, path.join('.'));
      assert.notEqual(node.items, false, path.join('.'));
    }
  });

  it('the tuple accepts exactly the arrays the zod contract accepts (2020-12 and the editor\'s draft-07)', () => {
    const tuple = z.tuple([z.number(), z.number()]);
    const ajv = new Ajv2020({ strict: false });
    for (const target of ['draft-2020-12', 'draft-7'] as const) {
      const check = ajv.compile(toJsonSchema(tuple, target));
      for (const v of [[1, 2], [1], [1, 2, 3], ['1', 2], []]) assert.equal(check(v), tuple.safeParse(v).success, `${target} ${JSON.stringify(v)}`);
    }
    // A tuple of different types keeps its positions.
    assert.ok(toJsonSchema(z.tuple([z.number(), z.string()]), 'draft-2020-12').prefixItems);
  });

  it('describes every operation in the words of its endpoint rows', () => {
    for (const [p, m, op] of operations(all)) {
      assert.ok(op.description && op.description.length > 20, `${m} ${p}`);
      const rows = Object.values(ENDPOINTS).filter((d) => d.path.replace(/:([A-Za-z_]+)/g, '{$1}') === p && d.method.toLowerCase() === m);
      assert.ok(rows.length > 0, `${m} ${p}`);
      for (const d of rows) assert.ok(op.description.includes(d.description), `${d.id}: ${op.description}`);
    }
  });

  it('has info.contact and externalDocs with a URL', () => {
    assert.match(String((all.info.contact as { url?: string }).url), /^https:\/\//);
    assert.match(String(all.externalDocs?.url), /^https:\/\//);
  });

  it('every request body has examples from examples/, each valid against its schema, no variable left', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'https://tpp.invalid/openapi', components: all.components });
    const rebase = (s: object) => JSON.parse(JSON.stringify(s).replaceAll('"#/components/', '"https://tpp.invalid/openapi#/components/')) as object;
    let shown = 0;
    for (const [p, m, op] of operations(all)) {
      const media = op.requestBody?.content['application/json'];
      if (!media) continue;
      assert.ok(media.examples && Object.keys(media.examples).length > 0, `${m} ${p} has examples`);
      const check = ajv.compile(rebase(media.schema));
      for (const [kind, ex] of Object.entries(media.examples)) {
        assert.ok(check(ex.value), `${m} ${p} ${kind}: ${JSON.stringify(check.errors)}`);
        assert.doesNotMatch(JSON.stringify(ex.value), /\{\{|"\$/, `${kind}: no variable, no meta property`);
        shown++;
      }
    }
    assert.equal(new Set(Object.keys(examples)).size, Object.keys(PAYLOAD_KINDS).length, 'one example per payload kind');
    assert.ok(shown >= Object.keys(PAYLOAD_KINDS).length);
  });

  for (const which of ['v3', 'v2', 'eligibility'] as const) {
    it(`--interface ${which}: only its operations, one server, no per-path server`, () => {
      const doc = docOf(which);
      assert.equal(doc.servers.length, 1);
      const expected = Object.values(ENDPOINTS).filter((d) => d.base === which).map((d) => `${d.method.toLowerCase()} ${d.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`);
      const got = operations(doc).map(([p, m]) => `${m} ${p}`);
      assert.deepEqual(new Set(got), new Set(expected));
      for (const item of Object.values(doc.paths)) assert.equal(item.servers, undefined);
      assert.deepEqual(doc.tags.map((t) => t.name).sort(), [...new Set(operations(doc).flatMap(([, , op]) => op.tags))].sort(), 'only the tags in use');
    });
  }

  it('takes extra paths under one tag (the document of all three only) and refuses a path of the contract', () => {
    const extra = { tag: { name: 'control', description: 'Sandbox control.' }, paths: { '/__tpp/reset': { post: { operationId: 'reset', responses: { '204': { description: 'Reset.' } } } } } };
    const doc = buildOpenApiDocument('1', { interface: 'all', extra }) as unknown as Doc;
    assert.deepEqual(doc.paths['/__tpp/reset']?.post?.tags, ['control']);
    assert.ok(doc.tags.some((t) => t.name === 'control'));
    for (const which of ['v3', 'v2', 'eligibility'] as const) {
      assert.equal((buildOpenApiDocument('1', { interface: which, extra }) as unknown as Doc).paths['/__tpp/reset'], undefined, which);
    }
    assert.throws(() => buildOpenApiDocument('1', { extra: { ...extra, paths: { '/registrations': {} } } }), /already a path/);
  });
});

describe('cli: tpp openapi --interface', () => {
  it('two runs print identical bytes, with no path of this machine', async () => {
    for (const which of OPENAPI_INTERFACES) {
      const a = capture();
      const b = capture();
      assert.equal(await runCli(['openapi', '--interface', which], a.io), 0);
      assert.equal(await runCli(['openapi', '--interface', which], b.io), 0);
      assert.equal(a.out(), b.out(), which);
      assert.ok(!a.out().includes(process.cwd()), `${which}: no absolute path`);
    }
  });

  it('the document of all three describes the Local sandbox\'s control API under its own tag and server; the others do not', async () => {
    const read = async (which: string) => {
      const c = capture();
      assert.equal(await runCli(['openapi', '--interface', which, '--format', 'json'], c.io), 0);
      return JSON.parse(c.out()) as Doc & { paths: Record<string, { servers?: { url: string }[]; get?: { tags?: string[]; operationId?: string } }> };
    };
    const all = await read('all');
    const health = all.paths['/__tpp/health'];
    assert.deepEqual(health?.get?.tags, ['Sandbox control']);
    assert.equal(health?.get?.operationId, 'tppControlGetHealth');
    assert.equal(health?.servers?.[0]?.url, '{sandbox_origin}');
    assert.ok(all.tags.some((t) => t.name === 'Sandbox control'));
    for (const which of ['v3', 'v2', 'eligibility']) assert.ok(!Object.keys((await read(which)).paths).some((p) => p.startsWith('/__tpp')), which);
  });

  it('--interface control: the control API alone, its reference wherever tpp is installed', async () => {
    const c = capture();
    assert.equal(await runCli(['openapi', '--interface', 'control', '--format', 'json'], c.io), 0);
    const doc = JSON.parse(c.out()) as Doc & { openapi: string; paths: Record<string, unknown> };
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(Object.keys(doc.paths).length > 0 && Object.keys(doc.paths).every((p) => p.startsWith('/__tpp/')), Object.keys(doc.paths).join(', '));
    assert.ok(doc.paths['/__tpp/reset'] && doc.paths['/__tpp/faults']);
  });

  it('an unknown interface exits 2 naming the choices', async () => {
    const c = capture();
    assert.equal(await runCli(['openapi', '--interface', 'v4'], c.io), 2);
    assert.match(c.err(), /--interface must be one of v3, v2, eligibility, all, control, not 'v4'/);
    assert.doesNotMatch(c.err(), /\n\s+at /);
  });
});

describe('contract: OpenAPI export as strict as the sandbox', () => {
  const all = docOf('all');
  const opAt = (d: Doc, path: string, method: string) => d.paths[path]?.[method] as unknown as { responses: Record<string, { headers?: Record<string, unknown> }>; security?: unknown };

  it('declares 409 (duplicate invoice) on the three registration creates', () => {
    for (const path of ['/registrations', '/tire-protection/registrations', '/motor-club/registrations']) {
      assert.ok(opAt(all, path, 'post').responses['409'], path);
    }
  });

  it('types identifiers as strings, as the spec says (the claim id stays a number)', () => {
    const props = (name: string) => (all.components.schemas[name] as { properties: Record<string, unknown> }).properties;
    for (const [name, field] of [['VerifyTokenResponse', 'partner_id'], ['CreatedId', 'id'], ['TireProtectionRegistrationRecord', '_id'], ['RegistrationRecord', '_id'], ['MotorClubRegistrationRecord', '_id']] as const) {
      assert.equal((props(name)[field] as { type?: unknown }).type, 'string', `${name}.${field}`);
    }
    assert.deepEqual(props('CreatedClaimId').id, { type: 'integer', description: 'Identifier of the new claim (number).' }, 'a number, as answered: not string | number');
  });

  it('marks required what every read carries: a record\'s _id, every field of the list envelope', () => {
    const req = (name: string) => (all.components.schemas[name] as { required?: string[] }).required ?? [];
    for (const name of ['RegistrationRecord', 'TireProtectionRegistrationRecord', 'MotorClubRegistrationRecord']) assert.ok(req(name).includes('_id'), name);
    for (const name of ['RegistrationList', 'TireProtectionRegistrationList', 'MotorClubRegistrationList']) {
      assert.deepEqual([...req(name)].sort(), ['page', 'pageSize', 'results', 'totalPages', 'totalRecordCount'], name);
    }
  });

  it('declares Retry-After on every 429 and 503', () => {
    for (const [p, m] of operations(all)) {
      for (const status of ['429', '503']) assert.ok(opAt(all, p, m).responses[status]?.headers?.['Retry-After'], `${m} ${p} ${status}`);
    }
  });

  it('writes no editor-only keyword, keeps deprecated: true', () => {
    const text = JSON.stringify(all);
    for (const k of ['deprecationMessage', 'patternErrorMessage', 'errorMessage', 'markdownDescription']) assert.ok(!text.includes(`"${k}"`), k);
    assert.ok([...nodes(all.components.schemas)].some(([, n]) => n.deprecated === true), 'a schema stays deprecated');
  });

  it('writes nullable arrays as type [array, "null"], never anyOf [array, null]', () => {
    let typed = 0;
    for (const [path, node] of nodes(all)) {
      const branches = node.anyOf as { type?: unknown }[] | undefined;
      if (Array.isArray(branches)) assert.ok(!(branches.some((b) => b.type === 'array') && branches.some((b) => b.type === 'null')), path.join('.'));
      if (Array.isArray(node.type) && node.type.includes('array') && node.type.includes('null')) typed++;
    }
    assert.ok(typed > 0);
  });

  it('takes everyday version 2 prices with the default options of ajv 2020-12 (as Prism runs it) and refuses a money string with a third decimal and impossible dates, as the sandbox does', () => {
    // Default options: a `multipleOf: 0.01` on money would fail 19.99 here (19.99 / 0.01 = 1998.9999999999998), as it
    // would in every tool that divides binary floats; a number's third decimal is left to the contract (docs/contract.md).
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'https://tpp.invalid/openapi', components: all.components });
    const check = ajv.compile({ $ref: 'https://tpp.invalid/openapi#/components/schemas/V2PostBody' });
    const reg = { ShopID: 'NW', InvoiceNumber: 'I', PlanEnrollDate: '2024-02-29', EmployeeID: 'E', CustomerID: 'C', TiresCovered: 4, TPPPrice: '24.99', TireBrand: 'B', TireSize: 'S', TirePrice: 219.01, TireCost: 0.29, TireDOT1: 'D' };
    for (const price of [19.99, 0.29, 1.15, 4.35, 8.2, 1234.56, 219.01]) {
      assert.ok(check({ Registrations: [{ ...reg, TirePrice: price, TireCost: price, TPPPrice: price }] }), `${price}: ${JSON.stringify(check.errors)}`);
    }
    for (const bad of [{ TirePrice: '219.005' }, { TirePrice: '19.9.9' }, { PlanEnrollDate: '2023-02-29' }, { PlanEnrollDate: '2024-01-01T10:00:00' }]) {
      assert.equal(check({ Registrations: [{ ...reg, ...bad }] }), false, JSON.stringify(bad));
    }
  });

  it('a version 2 POST body has one array property: a second one is refused whatever it holds, as the contract does', () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'https://tpp.invalid/openapi', components: all.components });
    const check = ajv.compile({ $ref: 'https://tpp.invalid/openapi#/components/schemas/V2PostBody' });
    const sales = { Sales: [{ ShopID: 'NW', InvoiceNumber: 'S1', SaleDate: '2025-06-02', TireCount: 2, TireBrand: 'B', TireModel: 'M', TireSize: 'S', TirePrice: '219.00', TireCost: 1 }] };
    assert.ok(check(sales) && check({ ...sales, note: 'unknown properties pass' }), JSON.stringify(check.errors));
    for (const second of [{ Claims: [] }, { Claims: [{}] }, { Registrations: null }, { Cancellations: 'x' }]) assert.equal(check({ ...sales, ...second }), false, JSON.stringify(second));
  });

  it('describes the version 2 answers: a GET answers records carrying PartnerID, a POST one outcome per record', () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'https://tpp.invalid/openapi', components: all.components });
    const get = ajv.compile({ $ref: 'https://tpp.invalid/openapi#/components/schemas/V2GetResponse' });
    assert.ok(get([]) && get([{ PartnerID: 17, ShopID: 'NW', TiresCovered: '4' }]) && get({ PartnerID: '17', WarrantyStatus: 1 }));
    for (const bad of [[{}], {}, [{ PartnerID: 'seventeen' }], 'text', [{ PartnerID: 1, OrgID: {} }]]) assert.equal(get(bad), false, JSON.stringify(bad));
    const post = ajv.compile({ $ref: 'https://tpp.invalid/openapi#/components/schemas/V2PostResponse' });
    assert.ok(post({ Registrations: [{ index: 0, status: 'created', statusCode: 201, RegistrationID: 48213, id: 'r1' }] }) && post({ other: 1 }));
    for (const bad of [[], 'ok', { Claims: {} }, { Sales: [{ statusCode: '201' }] }, { Registrations: [{ index: 0.5 }] }]) assert.equal(post(bad), false, JSON.stringify(bad));
  });

  it('gives the eligibility lookup its own security scheme (a dedicated token, not the partner JWT)', () => {
    const path = '/vehicle-lookup/{program}/rsa/eligible';
    assert.deepEqual(opAt(all, path, 'get').security, [{ eligibilityToken: [] }]);
    const elig = docOf('eligibility') as unknown as { security: unknown; components: { securitySchemes: Record<string, unknown> } };
    assert.deepEqual(elig.security, [{ eligibilityToken: [] }]);
    assert.deepEqual(Object.keys(elig.components.securitySchemes), ['eligibilityToken']);
    assert.equal(opAt(all, '/verify-token', 'get').security, undefined, 'partner calls keep the document\'s bearerAuth');
  });
});
