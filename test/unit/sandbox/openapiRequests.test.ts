import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { ENDPOINTS, MESSAGES, PAYLOAD_KINDS, type EndpointDef, type PayloadKind } from '../../../src/core/contract';
import { chooseAndParseBody } from '../../../src/core/sandbox/routes';
import type { SandboxHandle } from '../../../src/core/sandbox/server';
import { exampleBodies } from '../../../src/core/variables/exampleBodies';
import { Client, startWith } from './helpers';
import { OpenApiCheck, send, templateOf, type Req } from './openapiCheck';

/**
 * The exported OpenAPI document accepts exactly the requests the Local sandbox accepts (docs/contract.md): over
 * bodies generated from the examples of every payload kind with seeded mutations (a field set to a value of a pool
 * around each rule's boundary, removed, or added from the names the document knows; two bodies of one path merged),
 * a body the document accepts (ajv 2020-12) is never a 400 of the sandbox (2xx, or a state answer: 404, 409), and a
 * body it refuses is a 400. Then every field of every example set to each value across its rules (or removed),
 * through the sandbox's request parsing in-process: thousands of cases, each rule met by each field. Query
 * parameters likewise, over a fixed table.
 * Outside the comparison, by design (docs/contract.md, docs/sandbox.md): the Local sandbox's own limits the spec does
 * not state (tire counts over 1000, pageSize over 1000: the pools stay below), string lengths in characters that are
 * not one code point each (JSON Schema counts code points; the pools use none), and a money number with a third
 * decimal (219.005, or a float sum such as 0.1 + 0.2): the document carries no `multipleOf: 0.01`, which validators
 * dividing binary floats apply wrongly to 19.99. Such a case is counted and printed, and only when every problem the
 * sandbox names is the money rule.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are edited freely
type Body = any;
const RUNS = Number(process.env.TPP_OPENAPI_AGREEMENT_RUNS ?? 20);
const SEED = Number(process.env.TPP_OPENAPI_AGREEMENT_SEED ?? 20261125);
const ELIGIBILITY_TOKEN = 'agree-requests-token';
const ex = exampleBodies() as Record<PayloadKind, Body>;

/** True when the sandbox's refusal names only the money rule (a number's third decimal, which the document leaves open). */
const onlyMoneyDecimals = (issues: unknown): boolean =>
  Array.isArray(issues) && issues.length > 0 && issues.every((i: { message?: unknown }) => i?.message === MESSAGES.money);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Values around the rules of the contract: lengths, v2 numbers as strings, money decimals, dates, years, e-mail, enums. */
const VALUES: readonly unknown[] = [
  '', 'x', 'NW-0142', 'x'.repeat(25), 'x'.repeat(26), 'x'.repeat(51), 'é😀'.repeat(13), '4', '-2', ' 4', '4.0', '12.50', '219.005', '1e3',
  '2024-02-29', '2023-02-29', '2025-01-15T10:00:00', '2025-01-15T10:00:00Z', '2025-01-15 10:00:00+02:00', '2025-13-01', '15/01/2025',
  'Yes', 'no', 'Maybe', 'REPLACE', 'repair', 'ava@example.com', 'not-an-email', '2021', '21', 'TX',
  0, 1, 4, -2, 1.5, 12.5, 19.99, 219.01, 219.005, 0.29, 2021, 999, 10000, 1000, 1e300, null, true, false, [], {}, ['x'], [{}], [1, 2],
];

/** Values just across the rules from `v`, the value a field has: a third decimal, no zone, a day too far, one more character. */
function near(v: unknown): unknown[] {
  if (typeof v === 'number') return [v + 0.005, v + 0.5, -v, Math.trunc(v), String(v), `${v}5`, v * 1e6, 0.29, 1.15];
  if (typeof v !== 'string') return [...VALUES];
  const out: unknown[] = ['', `${v}${v}`, v.slice(0, 1), v.toLowerCase(), ` ${v}`, `${v}x`, `${v}5`, `${v}.005`, Number(v)];
  if (/^\d{4}-\d{2}-\d{2}/.test(v)) out.push(`${v.slice(0, 8)}31`, `${v.slice(0, 5)}02-29`, `${v.slice(0, 10)}T10:00:00`, `${v.slice(0, 10)}T10:00:00Z`, v.slice(0, 10), `${v.slice(0, 10)}T24:00Z`);
  return out;
}

/** Every property name the document's schemas know (to add to a body at any level). */
function propertyNames(doc: Record<string, Body>): string[] {
  const names = new Set<string>();
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(walk);
    if (!isObject(n)) return;
    if (isObject(n.properties)) for (const k of Object.keys(n.properties)) names.add(k);
    Object.values(n).forEach(walk);
  };
  walk(doc.components?.schemas);
  return [...names].sort();
}

/** Paths to every value of `v` (objects' keys and arrays' indices), the root excluded. */
function paths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(v)) return v.flatMap((x, i) => [[...at, i], ...paths(x, [...at, i])]);
  if (isObject(v)) return Object.entries(v).flatMap(([k, x]) => [[...at, k], ...paths(x, [...at, k])]);
  return [];
}

/** A value of {@link VALUES}, or (`near`) the i-th of {@link near} the value it replaces. */
type Value = { value: unknown } | { near: number };
type Mutation = { kind: 'set'; path: number; value: Value } | { kind: 'delete'; path: number } | { kind: 'add'; path: number; name: number; value: Value } | { kind: 'merge'; other: number };

function valueOf(v: Value, current: unknown): unknown {
  if ('value' in v) return structuredClone(v.value);
  const candidates = near(current);
  return structuredClone(candidates[v.near % candidates.length]);
}

function mutate(base: Body, m: Mutation, names: readonly string[], siblings: readonly Body[]): Body {
  const body = structuredClone(base);
  const all = paths(body);
  const parentOf = (p: (string | number)[]) => p.slice(0, -1).reduce((o: Body, k) => o[k], body);
  if (m.kind === 'merge') return siblings.length ? { ...body, ...structuredClone(siblings[m.other % siblings.length]) } : body;
  if (m.kind === 'add') {
    const objects = [[], ...all].filter((p) => isObject(p.reduce((o: Body, k) => o?.[k], body)));
    const target = (objects[m.path % objects.length] as (string | number)[]).reduce((o: Body, k) => o[k], body);
    const name = names[m.name % names.length] as string;
    target[name] = valueOf(m.value, target[name]);
    return body;
  }
  if (all.length === 0) return body;
  const p = all[m.path % all.length] as (string | number)[];
  const parent = parentOf(p);
  const key = p.at(-1) as string | number;
  if (m.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else parent[key] = valueOf(m.value, parent[key]);
  return body;
}

const value: fc.Arbitrary<Value> = fc.oneof(fc.constantFrom(...VALUES).map((v) => ({ value: v })), fc.nat().map((i) => ({ near: i })));
const mutation = (): fc.Arbitrary<Mutation> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), path: fc.nat(), value }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), path: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('add' as const), path: fc.nat(), name: fc.nat(), value }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('merge' as const), other: fc.nat() }) },
  );

describe('OpenAPI document and Local sandbox: the requests the document accepts are the ones the sandbox accepts', function () {
  this.timeout(120_000);
  let sb: SandboxHandle;
  let c: Client;
  let check: OpenApiCheck;
  let names: string[];
  const ids = { old: '', tp: '', mc: '' };
  const run = `${process.pid}-${Date.now().toString(36)}`;
  let moneyGaps = 0;

  before(async () => {
    const started = await startWith({ eligibilityToken: ELIGIBILITY_TOKEN });
    sb = started.sb;
    c = started.clients[0] as Client;
    check = await OpenApiCheck.load();
    names = propertyNames(check.doc);
    const create = async (def: EndpointDef, body: Body) => {
      const r = await send(c, ELIGIBILITY_TOKEN, def, { path: def.path, body });
      assert.ok(r.status < 300, `${def.id}: ${r.text}`);
      return r.json?.id as string;
    };
    ids.old = await create(ENDPOINTS.createRegistration, { ...ex.registration, invoiceNumber: `AGREE-OLD-${run}` });
    ids.tp = await create(ENDPOINTS.createTireProtectionRegistration, { ...ex['tire-protection-registration'], invoiceNumber: `AGREE-TP-${run}`, tires: Array.from({ length: 20 }, () => ex['tire-protection-registration'].tires[0]) });
    ids.mc = await create(ENDPOINTS.createMotorClubRegistration, { ...ex['motor-club-registration'], invoiceNumber: `AGREE-MC-${run}` });
    await create(ENDPOINTS.createShop, ex.shop);
    await send(c, ELIGIBILITY_TOKEN, ENDPOINTS.v2PostRecords, { path: '/v2/partners/partner1', body: ex['v2-registrations'] });
  });
  after(async () => {
    await sb?.close();
    if (moneyGaps) console.log(`      (${moneyGaps} case(s) of a money number with a third decimal: the sandbox refuses it, the document leaves it open; docs/contract.md)`);
  });

  /** Path (parameters filled) and query of a request to `def` that finds its record. */
  const target = (def: EndpointDef): Req => {
    const byInvoice = def.pathParams.length === 0 && 'invoiceNumber' in def.query && def.method === 'PATCH';
    const invoice = def.path.startsWith('/motor-club') ? `AGREE-MC-${run}` : def.path.startsWith('/tire-protection') ? `AGREE-TP-${run}` : `AGREE-OLD-${run}`;
    const id = def.path.startsWith('/motor-club') ? ids.mc : def.path.startsWith('/tire-protection') ? ids.tp : ids.old;
    const path = def.path.replace(':id', id).replace(':uniqueId', encodeURIComponent(ex.shop.uniqueId)).replace(':company_name', 'partner1');
    return { path, ...(byInvoice ? { query: { invoiceNumber: invoice } } : {}) };
  };

  const withBody = (Object.values(ENDPOINTS) as EndpointDef[]).filter((d) => d.body);
  for (const def of withBody) {
    const kinds = (Object.keys(PAYLOAD_KINDS) as PayloadKind[]).filter((k) => PAYLOAD_KINDS[k].endpoints.includes(def.id));
    // Bodies of every kind sent to this method and path (the PATCH forms told apart by their body, the v2 arrays).
    const siblings = withBody.filter((d) => d.method === def.method && d.path === def.path).flatMap((d) => (Object.keys(PAYLOAD_KINDS) as PayloadKind[]).filter((k) => PAYLOAD_KINDS[k].endpoints.includes(d.id)));
    it(`${def.method} ${templateOf(def)} (${def.id}): ${RUNS} generated bodies`, async () => {
      const seen = new Set<'accepted' | 'refused'>();
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...kinds), fc.array(mutation(), { minLength: 0, maxLength: 3 }), async (kind, ms) => {
          const body = ms.reduce((b, m) => mutate(b, m, names, siblings.map((k) => ex[k])), ex[kind]);
          const req = { ...target(def), body };
          const refused = check.requestProblems(def, req);
          const reply = await send(c, ELIGIBILITY_TOKEN, def, req);
          const sandboxRefused = reply.status === 400;
          seen.add(sandboxRefused ? 'refused' : 'accepted');
          if (sandboxRefused === refused.length > 0) {
            assert.ok(sandboxRefused || [200, 201, 204, 404, 409].includes(reply.status), `${reply.status} ${reply.text}`);
            return;
          }
          if (sandboxRefused && onlyMoneyDecimals((reply.json as { issues?: unknown } | undefined)?.issues)) return void moneyGaps++;
          assert.fail(`${def.id}: the document ${refused.length ? `refuses (${refused.join('; ')})` : 'accepts'} but the sandbox answers ${reply.status} ${reply.text.slice(0, 400)}\nbody: ${JSON.stringify(body)}`);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      if (RUNS >= 20) assert.deepEqual([...seen].sort(), ['accepted', 'refused'], 'the generated bodies are both accepted and refused');
    });
  }

  it("every field of every example, set to each value across its rules or removed: the document and the sandbox's request parsing agree", () => {
    // In-process (the parsing every request of the sandbox goes through, no HTTP), so that every field meets every
    // boundary value: what the generated bodies above reach by chance, over HTTP.
    const mismatches: string[] = [];
    let cases = 0;
    for (const def of withBody) {
      const group = withBody.filter((d) => d.method === def.method && d.path === def.path);
      for (const kind of (Object.keys(PAYLOAD_KINDS) as PayloadKind[]).filter((k) => PAYLOAD_KINDS[k].endpoints.includes(def.id))) {
        for (const p of paths(ex[kind])) {
          const current = p.reduce((o: Body, k) => o[k], ex[kind]);
          for (const value of [undefined, ...near(current), '', null, [], {}, -2, 1e300, 'x'.repeat(300)]) {
            const body = structuredClone(ex[kind]);
            const parent = p.slice(0, -1).reduce((o: Body, k) => o[k], body);
            if (value === undefined) delete parent[p.at(-1) as string];
            else parent[p.at(-1) as string] = structuredClone(value);
            cases++;
            const documentRefuses = check.requestProblems(def, { ...target(def), body }).length > 0;
            let sandboxRefuses = false;
            let issues: unknown;
            try {
              chooseAndParseBody(group, body);
            } catch (e) {
              sandboxRefuses = true;
              issues = (e as { issues?: unknown }).issues;
            }
            if (documentRefuses === sandboxRefuses) continue;
            if (sandboxRefuses && onlyMoneyDecimals(issues)) {
              moneyGaps++;
              continue;
            }
            mismatches.push(`${def.id} ${kind} ${p.join('.')} = ${JSON.stringify(value)}: document ${documentRefuses ? 'refuses' : 'accepts'}, sandbox ${sandboxRefuses ? 'refuses' : 'accepts'}`);
          }
        }
      }
    }
    assert.ok(cases > 1000, `${cases} cases`);
    assert.deepEqual(mismatches.slice(0, 15), [], `${mismatches.length} of ${cases}`);
  });

  /**
   * The other parameters of a query, valid, while one is varied. The eligibility lookup's rule across parameters (vin,
   * or licensePlate with state; vin wins) is beyond a document's query parameters: the other two stay valid.
   */
  const QUERY_BASE: Partial<Record<EndpointDef['id'], Record<string, string>>> = {
    v2GetRecords: { rec: 'sales' },
    lookupShop: { query: 'x' },
    eligibilityLookup: { licensePlate: 'LMN4821', state: 'TX' },
  };

  it('query parameters: the document refuses exactly the values the sandbox answers 400', async () => {
    const values = ['', '0', '1', '2', '-1', '1.5', ' 1', 'abc', 'registrations', 'TX', 'T', '1HGCV1F34KA012345'];
    for (const def of Object.values(ENDPOINTS) as EndpointDef[]) {
      for (const name of Object.keys(def.query)) {
        for (const value of values) {
          const base = target(def);
          const req: Req = { path: base.path, query: { ...QUERY_BASE[def.id], ...base.query, [name]: value }, body: def.body ? ex.cancellation : undefined };
          if (def.body && !def.id.startsWith('cancel')) continue; // a body of its own kind: the bodies' test covers them
          const refused = check.requestProblems(def, req).filter((p) => p.startsWith('query'));
          const reply = await send(c, ELIGIBILITY_TOKEN, def, req);
          assert.equal(reply.status === 400, refused.length > 0, `${def.id} ?${name}=${JSON.stringify(value)}: document ${refused.join('; ') || 'accepts'}, sandbox ${reply.status} ${reply.text.slice(0, 300)}`);
        }
      }
    }
  });
});
