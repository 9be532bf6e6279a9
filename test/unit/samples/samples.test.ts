import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/cli';
import type { Exchange } from '../../../src/core/exchange/types';
import {
  generateSample,
  SAMPLE_LANGUAGES,
  SampleRefused,
  sampleRequestFor,
  sampleRequestFromExchange,
  sampleRequestFromPayload,
} from '../../../src/core/samples';
import { PayloadRefused } from '../../../src/core/client/route';
import { validatePayload } from '../../../src/core/contract/kinds';
import type { FreshKind } from '../../../src/core/samples/fresh';
import { bodyJson } from '../../../src/core/samples/literals';
import { exampleCaptures, resolvedExample } from '../variables/exampleScope';

// Code samples: what request each sample makes, and what every program must say to follow the spec's
// Authentication section. Running them against the sandbox is test/samples/.
const examples = join(__dirname, '../../../examples');
/** An example with its {{variables}} resolved as a send after the examples' creates resolves them. */
const example = (name: string) => resolvedExample(JSON.parse(readFileSync(join(examples, name), 'utf8')) as Record<string, unknown>);

function exchange(method: string, url: string, body?: string): Exchange {
  return { id: '1', env: 'local', source: 'sandbox-log', time: '2026-01-01T00:00:00Z', request: { method, url, ...(body ? { body } : {}) }, durationMs: 1, attempts: 1 };
}

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } });
  return { code, out, err };
}

describe('code samples: the request', () => {
  it('a payload file: its endpoint, its body without $ meta properties, its record from $registrationId', () => {
    const claim = example('tire-protection-claim.json');
    const req = sampleRequestFromPayload(claim, 'claim.json');
    assert.equal(req.method, 'POST');
    assert.equal(req.baseEnv, 'TPP_BASE_URL');
    assert.deepEqual(req.path, [`/tire-protection/registrations/${String(claim.$registrationId)}/claims`]);
    assert.ok(!Object.keys(req.body as object).some((k) => k.startsWith('$')));
  });

  it('a payload file that does not name its record reads TPP_REGISTRATION_ID (or TPP_SHOP_UNIQUE_ID)', () => {
    const claim = example('tire-protection-claim.json');
    delete claim.$registrationId;
    assert.deepEqual(sampleRequestFromPayload(claim, 'claim.json').path, ['/tire-protection/registrations/', { env: 'TPP_REGISTRATION_ID', what: 'the _id of the registration' }, '/claims']);
    const part = example('part.json');
    delete part.$uniqueId;
    assert.ok(sampleRequestFromPayload(part, 'part.json').path.some((p) => typeof p !== 'string' && p.env === 'TPP_SHOP_UNIQUE_ID'));
  });

  it('a version 2 file goes to TPP_V2_BASE_URL (its aud) and its {company_name}', () => {
    const req = sampleRequestFromPayload(example('v2-sales.json'), 'v2-sales.json');
    assert.equal(req.baseEnv, 'TPP_V2_BASE_URL');
    assert.equal(req.path[0], '/v2/partners/');
  });

  it('refuses a file that is no payload, with the router\'s reason', () => {
    assert.throws(() => sampleRequestFromPayload({ hello: 1 }, 'x.json'), PayloadRefused);
  });

  it('an Exchange: method, path relative to its base, query and JSON body; the base address itself is not kept', () => {
    const req = sampleRequestFromExchange(exchange('POST', 'http://127.0.0.1:5555/api/v3/tire-protection/registrations/abc/claims?x=1', '{"a":1}'));
    assert.equal(req.title, 'POST /tire-protection/registrations/:id/claims (createTireProtectionClaim)');
    assert.deepEqual(req.path, ['/tire-protection/registrations/abc/claims?x=1']);
    assert.deepEqual(req.body, { a: 1 });
    const v2 = sampleRequestFromExchange(exchange('GET', 'http://127.0.0.1:5555/v2/partners/acme?ShopID=S1'));
    assert.equal(v2.baseEnv, 'TPP_V2_BASE_URL');
    assert.deepEqual(v2.path, ['/v2/partners/acme?ShopID=S1']);
  });

  it('refuses an Exchange that is no endpoint, the eligibility lookup (its own token), and a body that is not JSON', () => {
    assert.throws(() => sampleRequestFromExchange(exchange('GET', 'http://h/api/v3/nowhere')), SampleRefused);
    assert.throws(() => sampleRequestFromExchange(exchange('GET', 'http://h/api/v1/vehicle-lookup/p/rsa/eligible?vin=1')), /eligibility lookup/);
    assert.throws(() => sampleRequestFromExchange(exchange('POST', 'http://h/api/v3/tire-protection/registrations', '{not json')), /not JSON/);
  });

  it('path parameters are URL-encoded; query values too', () => {
    assert.deepEqual(sampleRequestFor('getTireProtectionRegistration', { id: 'a/b c' }, { q: 'x&y' }).path, ['/tire-protection/registrations/a%2Fb%20c?q=x%26y']);
  });
});

describe('code samples: every language', () => {
  const reg = example('tire-protection-registration.json');
  const req = sampleRequestFromPayload(reg, 'r.json');
  for (const lang of SAMPLE_LANGUAGES) {
    it(`${lang}: reads the three variables, mints per request with a 300 s lifetime, and embeds no key or token`, () => {
      const text = generateSample(req, lang);
      for (const v of ['TPP_BASE_URL', 'TPP_PARTNER_ID', 'TPP_PRIVATE_KEY_FILE']) assert.ok(text.includes(v), v);
      assert.doesNotMatch(text, /PRIVATE KEY-----|eyJ[\w-]+\./);
      assert.ok(text.endsWith('\n'));
      if (lang !== 'curl') {
        assert.match(text, /\b300\b|plusSeconds\(300\)/, 'exp = iat + 300 seconds');
        for (const alg of ['ES256', 'ES384', 'ES512']) assert.ok(text.includes(alg), `${alg} chosen from the curve`);
      } else assert.match(text, /tpp jwt mint --key "\$TPP_PRIVATE_KEY_FILE" --iss "\$TPP_PARTNER_ID" --aud "\$\{TPP_AUDIENCE:-\$TPP_BASE_URL\}"/);
      assert.ok(text.includes(String(reg.invoiceNumber)), 'the body is in the program');
    });
    it(`${lang}: signs for TPP_AUDIENCE when set (a proxy in front of the real address), else TPP_BASE_URL; v2: TPP_V2_AUDIENCE`, () => {
      const text = generateSample(req, lang);
      assert.ok(text.includes('TPP_AUDIENCE'), 'reads TPP_AUDIENCE');
      const aud = text.split('\n').filter((l) => /\baud\b|audience\(|setAudience|--aud/.test(l) && !/^\s*(#|\/\/)/.test(l));
      assert.ok(aud.length > 0 && aud.every((l) => /audience|TPP_AUDIENCE/.test(l)), `the aud is the audience, not the base address: ${aud.join(' | ')}`);
      const v2 = generateSample(sampleRequestFromPayload(example('v2-sales.json'), 'v2.json'), lang);
      assert.ok(v2.includes('TPP_V2_AUDIENCE') && !v2.includes('TPP_AUDIENCE"') && !v2.includes("TPP_AUDIENCE'"), 'a v2 call reads TPP_V2_AUDIENCE');
    });
  }
});

describe('code samples: fresh values on every run', () => {
  /** The raw example file, its {{variables}} as written. */
  const raw = (name: string) => JSON.parse(readFileSync(join(examples, name), 'utf8')) as Record<string, unknown>;
  /** What a program does before sending: each occurrence, in order, replaced by a value it generates. */
  const run = (req: ReturnType<typeof sampleRequestFromPayload>, gen: (v: FreshKind) => string | number): unknown => {
    let text = bodyJson(req)!;
    for (const f of req.fresh ?? []) text = text.replace(f.quoted ? `"${f.raw}"` : f.raw, () => String(gen(f.value)));
    return JSON.parse(text);
  };
  const gen = (n: number) => (v: FreshKind) => (v.kind === 'guid' ? `00000000-0000-4000-8000-00000000000${n}` : v.kind === 'timestamp' ? 1_800_000_000 + n + v.offsetSeconds : v.min + n);

  it('keeps {{$timestamp}} and {{$randomInt}} in the body and lists them in order: two runs send two invoice numbers', () => {
    const req = sampleRequestFromPayload(raw('tire-protection-registration.json'), 'r.json');
    assert.equal((req.body as { invoiceNumber: string }).invoiceNumber, 'INV-{{$timestamp}}-{{$randomInt 1000 10000}}');
    assert.deepEqual(req.fresh, [
      { raw: '{{$timestamp}}', quoted: false, value: { kind: 'timestamp', offsetSeconds: 0 } },
      { raw: '{{$randomInt 1000 10000}}', quoted: false, value: { kind: 'randomInt', min: 1000, max: 10000 } },
    ]);
    const first = run(req, gen(1)) as { invoiceNumber: string };
    const second = run(req, gen(2)) as { invoiceNumber: string };
    assert.equal(first.invoiceNumber, 'INV-1800000001-1001');
    assert.notEqual(first.invoiceNumber, second.invoiceNumber);
    assert.ok(validatePayload('tire-protection-registration', first).success);
  });

  it('a number field ("{{$randomInt a b}}" where the contract wants an int) is filled as a number; $guid, offsets in seconds to weeks', () => {
    const claim = raw('tire-protection-claim.json');
    claim.vehicleMileage = '{{$randomInt 1000 90000}}';
    claim.damageDescription = 'ref {{$guid}} at {{$timestamp -1 d}} by {{who}}, {{$datetime iso8601}}';
    const req = sampleRequestFromPayload(claim, 'c.json', { captured: exampleCaptures(), environment: { who: 'Ana' } });
    assert.deepEqual(req.fresh?.map((f) => [f.raw, f.quoted]), [
      ['{{$timestamp}}', false],
      ['{{$randomInt 100 1000}}', false],
      ['{{$randomInt 1000 90000}}', true],
      ['{{$guid}}', false],
      ['{{$timestamp -1 d}}', false],
    ]);
    const sent = run(req, gen(3)) as { vehicleMileage: unknown; damageDescription: string; serviceInvoiceDate: string };
    assert.equal(sent.vehicleMileage, 1003);
    assert.match(sent.damageDescription, /^ref 00000000-0000-4000-8000-000000000003 at 1799913603 by Ana, \d{4}-\d\d-\d\dT[\d:.]+Z$/, 'the other variables keep their copy-time value');
    assert.match(sent.serviceInvoiceDate, /^\d{4}-\d\d-\d\d$/);
    assert.ok(validatePayload('tire-protection-claim', sent).success);
  });

  it('a file without dynamic values, or with only copy-time ones, has no fresh value', () => {
    assert.equal(sampleRequestFromPayload(example('tire-protection-registration.json'), 'r.json').fresh, undefined);
    const reg = raw('tire-protection-registration.json');
    reg.invoiceNumber = 'INV-{{$timestamp 1 M}}';
    assert.equal(sampleRequestFromPayload(reg, 'r.json').fresh, undefined);
  });

  for (const lang of SAMPLE_LANGUAGES) {
    it(`${lang}: generates each value at run time, in the language, and keeps no copy-time invoice number`, () => {
      const text = generateSample(sampleRequestFromPayload(raw('tire-protection-registration.json'), 'r.json'), lang);
      assert.ok(text.includes('INV-{{$timestamp}}-{{$randomInt 1000 10000}}'), 'the body keeps the references as written');
      assert.equal(text.match(/\{\{\$timestamp\}\}/g)?.length, 2, 'the body and one fill statement');
      assert.equal(text.match(/\{\{\$randomInt 1000 10000\}\}/g)?.length, 2, 'the body and one fill statement');
      assert.doesNotMatch(text, /INV-\d+-\d+/);
    });
  }
});

describe('tpp code', () => {
  const file = join(examples, 'tire-protection-registration.json');

  it('prints the sample of a payload file (exit 0)', async () => {
    const r = await cli(['code', file, '--lang', 'python']);
    assert.equal(r.code, 0, r.err);
    // $datetime is resolved when the sample is made: compare with it masked; $timestamp and $randomInt stay for the program
    const same = (t: string) => t.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'T');
    const raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    assert.equal(same(r.out), same(generateSample(sampleRequestFromPayload(raw, 'x'), 'python')));
    assert.doesNotMatch(r.out.replace(/\{\{\$(timestamp|randomInt)[^}]*\}\}/g, ''), /\{\{/, 'no other {{variable}} is left in the program');
  });

  it('prints the sample of an endpoint with --param and --query', async () => {
    const r = await cli(['code', '--endpoint', 'getTireProtectionRegistration', '--param', 'id=R1', '--lang', 'go']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /baseURL\+"\/tire-protection\/registrations\/R1"/);
  });

  it('usage errors exit 2: no --lang, an unknown language or endpoint, a file and --endpoint together', async () => {
    for (const args of [['code', file], ['code', file, '--lang', 'cobol'], ['code', '--endpoint', 'nope', '--lang', 'go'], ['code', file, '--endpoint', 'verifyToken', '--lang', 'go']]) {
      const r = await cli(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.err, /Usage: tpp code/);
    }
  });

  it('an unreadable file or one that is no payload exits 2 with the reason', async () => {
    const missing = await cli(['code', join(examples, 'missing.json'), '--lang', 'node']);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /cannot read .*missing\.json: ENOENT/);
    const readme = await cli(['code', join(examples, 'README.md'), '--lang', 'node']);
    assert.equal(readme.code, 2);
    assert.match(readme.err, /is not JSON/);
  });
});
