import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument, getLanguageService } from 'vscode-json-languageservice';
import { z } from 'zod';
import {
  ENDPOINTS,
  PAYLOAD_KINDS,
  PAYLOAD_KIND_NAMES,
  PayloadKind,
  V2PostBody,
  V2_POST_BODIES,
  jsonSchemaFor,
  kindFromSchemaUri,
  metaOf,
  schemaUri,
  stripMeta,
  validatePayload,
} from '../../../src/core/contract';
import { resolvedExample } from '../variables/exampleScope';

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');

/** One kind per request body of the spec (docs/contract.md, Payload kinds and files), with the endpoints it goes to. */
const EXPECTED_KINDS: Record<PayloadKind, string[]> = {
  'v2-registrations': ['POST /v2/partners/:company_name'],
  'v2-claims': ['POST /v2/partners/:company_name'],
  'v2-sales': ['POST /v2/partners/:company_name'],
  'v2-cancellations': ['POST /v2/partners/:company_name'],
  registration: ['POST /registrations'],
  'tire-protection-registration': ['POST /tire-protection/registrations'],
  'tire-protection-claim': ['POST /tire-protection/registrations/:id/claims'],
  shop: ['POST /tire-protection/shops'],
  'shop-update': ['PATCH /tire-protection/shops/:uniqueId'],
  part: ['POST /tire-protection/shops/:uniqueId/parts'],
  transaction: ['POST /tire-protection/transactions'],
  'motor-club-registration': ['POST /motor-club/registrations'],
  'motor-club-customer': ['PATCH /motor-club/registrations/:id', 'PATCH /motor-club/registrations'],
  cancellation: [
    'PATCH /tire-protection/registrations/:id',
    'PATCH /tire-protection/registrations',
    'PATCH /motor-club/registrations/:id',
    'PATCH /motor-club/registrations',
    'PATCH /registrations/:id',
    'PATCH /registrations',
  ],
};

/** The examples as sent: `{{variables}}` resolved (the files themselves are checked in test/unit/variables). */
function loadExamples(): { file: string; json: Record<string, unknown>; text: string }[] {
  return readdirSync(EXAMPLES)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const json = resolvedExample(JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Record<string, unknown>);
      return { file, text: JSON.stringify(json, null, 2), json };
    });
}

/** Validates a JSON text against a kind's JSON Schema the way VS Code does. Returns the messages. */
async function jsonSchemaProblems(kind: PayloadKind, text: string): Promise<string[]> {
  const ls = getLanguageService({});
  ls.configure({ validate: true, schemas: [{ uri: schemaUri(kind), fileMatch: ['*.json'], schema: jsonSchemaFor(kind) as never }] });
  const doc = TextDocument.create('file:///payload.json', 'json', 1, text);
  const diags = await ls.doValidation(doc, ls.parseJSONDocument(doc));
  return diags.map((d) => (typeof d.message === 'string' ? d.message : d.message.value));
}

describe('contract: payload kinds', () => {
  it('has exactly the kinds of docs/contract.md, each tied to its endpoints', () => {
    assert.deepEqual([...PAYLOAD_KIND_NAMES].sort(), Object.keys(EXPECTED_KINDS).sort());
    for (const kind of PAYLOAD_KIND_NAMES) {
      const def = PAYLOAD_KINDS[kind];
      assert.equal(def.kind, kind);
      const eps = def.endpoints.map((id) => `${ENDPOINTS[id].method} ${ENDPOINTS[id].path}`);
      assert.deepEqual(eps, EXPECTED_KINDS[kind], kind);
      for (const id of def.endpoints) assert.equal(ENDPOINTS[id].body !== undefined, true, `${id} has a body`);
    }
  });

  it('each kind schema is the body schema of its endpoints (v2 kinds: one branch of the v2 POST body)', () => {
    for (const kind of PAYLOAD_KIND_NAMES) {
      const def = PAYLOAD_KINDS[kind];
      for (const id of def.endpoints) {
        const body = ENDPOINTS[id].body as z.ZodType;
        if (kind.startsWith('v2-')) {
          assert.equal(body, V2PostBody);
          assert.ok((Object.values(V2_POST_BODIES) as z.ZodType[]).includes(def.schema), kind);
          assert.ok(body.safeParse(stripMeta(def.template)).success, `${kind} template is a valid v2 POST body`);
        } else assert.equal(body, def.schema, `${kind} -> ${id}`);
      }
    }
  });

  it('the v2 POST body takes exactly one array property; issues name the exact field', () => {
    const reg = stripMeta(PAYLOAD_KINDS['v2-registrations'].template) as { Registrations: Record<string, unknown>[] };
    const sales = stripMeta(PAYLOAD_KINDS['v2-sales'].template) as { Sales: unknown[] };
    const none = V2PostBody.safeParse({});
    assert.ok(!none.success && none.error.issues[0]?.path.length === 0);
    const two = V2PostBody.safeParse({ ...reg, ...sales });
    assert.ok(!two.success && two.error.issues.map((i) => i.path.join('.')).join() === 'Sales');
    const bad = V2PostBody.safeParse({ Registrations: [{ ...reg.Registrations[0], ShopID: undefined }] });
    assert.ok(!bad.success);
    assert.deepEqual(bad.error.issues.map((i) => i.path.join('.')), ['Registrations.0.ShopID']);
  });

  it('deprecated kinds: only v2-cancellations', () => {
    assert.deepEqual(PAYLOAD_KIND_NAMES.filter((k) => PAYLOAD_KINDS[k].deprecated), ['v2-cancellations']);
  });

  it('schemaUri / kindFromSchemaUri round-trip; other URIs name no kind', () => {
    for (const kind of PAYLOAD_KIND_NAMES) {
      assert.equal(schemaUri(kind), `tpp://schemas/${kind}.json`);
      assert.equal(kindFromSchemaUri(schemaUri(kind)), kind);
    }
    for (const bad of ['tpp://schemas/unknown.json', 'tpp://schemas/shop', 'https://example.com/shop.json', '', 'tpp://schemas/.json', 'tpp://schemas/toString.json']) {
      assert.equal(kindFromSchemaUri(bad), undefined, bad);
    }
  });

  it('stripMeta drops $-prefixed top-level properties only; metaOf returns them', () => {
    const payload = { $schema: 'tpp://schemas/part.json', $uniqueId: 'NW-1', make: 'Continental', nested: { $keep: 1 } };
    assert.deepEqual(stripMeta(payload), { make: 'Continental', nested: { $keep: 1 } });
    assert.deepEqual(payload.$uniqueId, 'NW-1', 'input not mutated');
    assert.deepEqual(metaOf(payload), { $schema: 'tpp://schemas/part.json', $uniqueId: 'NW-1' });
    assert.deepEqual(stripMeta([1]), [1]);
    assert.equal(stripMeta(null), null);
  });

  it('every template validates against its kind and declares its $schema', () => {
    for (const kind of PAYLOAD_KIND_NAMES) {
      const t = PAYLOAD_KINDS[kind].template;
      assert.equal(t.$schema, schemaUri(kind));
      const r = validatePayload(kind, t);
      assert.ok(r.success, `${kind}: ${!r.success && JSON.stringify(r.error.issues)}`);
      for (const key of Object.keys(metaOf(t))) assert.ok(key === '$schema' || key in PAYLOAD_KINDS[kind].meta, `${kind} ${key}`);
    }
  });

  it('request schemas are plain z.object (unknown keys are stripped, not rejected)', () => {
    for (const kind of PAYLOAD_KIND_NAMES) {
      const s = PAYLOAD_KINDS[kind].schema;
      assert.ok(s instanceof z.ZodObject, kind);
      const r = s.safeParse({ ...stripMeta(PAYLOAD_KINDS[kind].template), Unknown: 1 });
      assert.ok(r.success, kind);
    }
  });
});

describe('contract: examples/*.json', () => {
  const examples = loadExamples();

  it('there is one example per kind, named <kind>.json', () => {
    assert.deepEqual(examples.map((e) => e.file.replace(/\.json$/, '')).sort(), [...PAYLOAD_KIND_NAMES].sort());
  });

  for (const { file, json, text } of examples) {
    describe(file, () => {
      const kind = kindFromSchemaUri(String(json.$schema)) as PayloadKind;

      it('starts with "$schema": "tpp://schemas/<kind>.json" naming its own kind', () => {
        assert.equal(Object.keys(json)[0], '$schema');
        assert.equal(kind, file.replace(/\.json$/, ''));
      });

      it('validates against the zod schema', () => {
        const r = validatePayload(kind, json);
        assert.ok(r.success, JSON.stringify(!r.success && r.error.issues));
      });

      it('validates against the generated JSON Schema (as VS Code checks it)', async () => {
        const problems = await jsonSchemaProblems(kind, text);
        // A deprecated kind gets only its deprecation warning.
        assert.deepEqual(
          problems.filter((p) => !(PAYLOAD_KINDS[kind].deprecated && /deprecated/.test(p))),
          [],
        );
        if (PAYLOAD_KINDS[kind].deprecated) assert.ok(problems.length > 0, 'deprecation is shown');
      });

      it('carries the meta data its endpoint needs', () => {
        const meta = PAYLOAD_KINDS[kind].meta;
        for (const [name, def] of Object.entries(meta)) if (def.required) assert.equal(typeof json[name], 'string', name);
        if (kind === 'tire-protection-claim' || kind === 'v2-claims') assert.equal(typeof json.$registrationId, 'string');
        if (kind === 'shop-update' || kind === 'part') assert.equal(typeof json.$uniqueId, 'string');
      });
    });
  }

  it('examples look real: tire sizes like 225/65R17, DOT serials, money with 2 decimals', () => {
    const all = examples.map((e) => e.text).join('\n');
    assert.match(all, /"\d{3}\/\d{2}R\d{2}"/);
    assert.match(all, /DOT [A-Z0-9]{4} [A-Z0-9]{4} \d{4}/);
    const v2reg = examples.find((e) => e.file === 'v2-registrations.json')?.json as { Registrations: Record<string, unknown>[] };
    for (const f of ['TPPPrice', 'TirePrice', 'TireCost']) assert.match(String(v2reg.Registrations[0]?.[f]), /^\d+(\.\d{1,2})?$/);
  });
});

describe('contract: JSON Schema (draft-07) per kind', () => {
  for (const kind of PAYLOAD_KIND_NAMES) {
    it(`${kind}: draft-07, $schema property allowed, spec notes as descriptions`, () => {
      const js = jsonSchemaFor(kind);
      assert.equal(js.$schema, 'http://json-schema.org/draft-07/schema#');
      assert.equal(js.$id, schemaUri(kind));
      const props = js.properties as Record<string, Record<string, unknown>>;
      assert.equal(props.$schema?.const, schemaUri(kind));
      for (const name of Object.keys(PAYLOAD_KINDS[kind].meta)) assert.ok(props[name], `${kind} declares ${name}`);
      assert.notEqual(js.additionalProperties, false, 'unknown properties are warnings, not schema errors');
      const text = JSON.stringify(js);
      assert.ok((text.match(/"description"/g) ?? []).length >= 3, 'descriptions present');
    });
  }

  it('carries the spec notes and limits (v2 registration)', () => {
    const text = JSON.stringify(jsonSchemaFor('v2-registrations'));
    assert.ok(text.includes('Shop where the tires were sold.'));
    assert.ok(text.includes('"maxLength":25'));
    assert.ok(text.includes('Yes or No; default No.'));
  });

  it('JSON Schema reports the same violations VS Code users would see', async () => {
    const bad = JSON.stringify({
      $schema: schemaUri('v2-sales'),
      Sales: [{ ShopID: 'x'.repeat(26), InvoiceNumber: 'I', SaleDate: '03/15/2024', TireCount: 1, TireBrand: 'B', TireModel: 'M', TireSize: 'S', TirePrice: '12.345', TireCost: 1 }],
    });
    const problems = await jsonSchemaProblems('v2-sales', bad);
    assert.ok(problems.some((p) => /25/.test(p)), problems.join('\n'));
    assert.ok(problems.some((p) => p.includes('ISO 8601')), problems.join('\n'));
    assert.ok(problems.some((p) => p.includes('at most 2 decimals')), problems.join('\n'));
  });

  it('returns a fresh copy each time', () => {
    const a = jsonSchemaFor('shop');
    a.title = 'changed';
    assert.notEqual(jsonSchemaFor('shop').title, 'changed');
  });
});
