import * as assert from 'node:assert/strict';
import { PAYLOAD_KINDS } from '../../../src/core/contract';
import {
  KNOWN_DYNAMIC_VARIABLES,
  VariableError,
  captureFromResponse,
  captureNames,
  environmentVariables,
  isCaptureName,
  parseRefs,
  resolvePayloadVariables,
  variablesUsed,
  wholeRef,
} from '../../../src/core/variables';

const NOW = new Date('2026-03-05T10:20:30.000Z');
const fixed = (r: number) => ({ now: NOW, random: () => r });
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- resolved bodies are read freely
type Any = any;
const v2 = (rec: Record<string, unknown>) => ({ $schema: 'tpp://schemas/v2-registrations.json', Registrations: [{ ...(PAYLOAD_KINDS['v2-registrations'].template as Any).Registrations[0], ...rec }] });

describe('variables: syntax', () => {
  it('finds {{…}} references with their name and arguments, and the whole-string form', () => {
    assert.deepEqual(parseRefs('INV-{{$randomInt 1 10}}-{{ store }}').map((r) => [r.name, r.args]), [['$randomInt', ['1', '10']], ['store', []]]);
    assert.equal(parseRefs('no braces').length, 0);
    assert.equal(wholeRef('{{$guid}}')?.name, '$guid');
    assert.equal(wholeRef('x{{$guid}}'), undefined);
    assert.equal(wholeRef('{{a}}{{b}}'), undefined);
  });
  it('variablesUsed lists each name once, in order, from strings at any depth', () => {
    assert.deepEqual(variablesUsed({ a: '{{x}}', b: ['{{$guid}} {{x}}', { c: '{{lastRegistration.id}}' }], k: 3 }), ['x', '$guid', 'lastRegistration.id']);
  });
});

describe('variables: dynamic values (REST Client semantics)', () => {
  const resolve = (s: string, r = 0.5) => resolvePayloadVariables({ s }, undefined, fixed(r)) as { s: unknown };
  it('$guid is a fresh v4 UUID each occurrence', () => {
    const out = resolvePayloadVariables({ a: '{{$guid}}', b: '{{$guid}}' }, undefined) as { a: string; b: string };
    assert.match(out.a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(out.a, out.b);
  });
  it('$timestamp is Unix seconds, with an optional offset', () => {
    assert.equal(resolve('{{$timestamp}}').s, Math.floor(NOW.getTime() / 1000));
    assert.equal(resolve('{{$timestamp -1 d}}').s, Math.floor(NOW.getTime() / 1000) - 86400);
  });
  it('$datetime iso8601 / rfc1123, with an offset', () => {
    assert.equal(resolve('{{$datetime iso8601}}').s, '2026-03-05T10:20:30.000Z');
    assert.equal(resolve('{{$datetime rfc1123}}').s, 'Thu, 05 Mar 2026 10:20:30 GMT');
    assert.equal(resolve('{{$datetime iso8601 1 d}}').s, '2026-03-06T10:20:30.000Z');
    assert.equal(resolve('{{$datetime iso8601 -2 M}}').s, '2026-01-05T10:20:30.000Z');
  });
  it("$datetime and $localDatetime with a dayjs format in quotes, as REST Client and httpyac (dayjs, its utc plugin only)", () => {
    const dayjs = require('dayjs') as typeof import('dayjs');
    assert.equal(resolve("{{$datetime 'YYYY-MM-DD'}}").s, '2026-03-05');
    assert.equal(resolve('{{$datetime "DD MMM YYYY HH:mm" 1 d}}').s, '06 Mar 2026 10:20');
    assert.equal(resolve("{{$datetime 'Do X' }}").s, '5o X', 'tokens of plugins neither tool loads stay as dayjs core leaves them');
    assert.equal(resolve("{{$localDatetime 'YYYY-MM-DD HH:mm'}}").s, dayjs(NOW).format('YYYY-MM-DD HH:mm'));
    assert.equal(resolve('{{$localDatetime iso8601}}').s, dayjs(NOW).format());
    assert.equal(resolve('{{$localDatetime rfc1123}}').s, dayjs(NOW).locale('en').format('ddd, DD MMM YYYY HH:mm:ss ZZ'));
    assert.equal(resolve('{{$datetime iso8601 1 M}}', 0).s, '2026-04-05T10:20:30.000Z');
    const endOfJanuary = resolvePayloadVariables({ s: '{{$datetime iso8601 1 M}}' }, undefined, { now: new Date('2025-01-31T00:00:00Z'), random: () => 0 }) as { s: string };
    assert.equal(endOfJanuary.s, '2025-02-28T00:00:00.000Z', "a month later is dayjs's (the end of February), not February 31st");
  });
  it('$randomInt min max: min inclusive, max exclusive', () => {
    assert.equal(resolve('{{$randomInt 1 5}}', 0).s, 1);
    assert.equal(resolve('{{$randomInt 1 5}}', 0.999999).s, 4);
    for (let i = 0; i < 200; i++) {
      const v = (resolvePayloadVariables({ s: '{{$randomInt -3 3}}' }, undefined) as { s: number }).s;
      assert.ok(Number.isInteger(v) && v >= -3 && v < 3, String(v));
    }
  });
  it("$date is today (UTC) in the spec's date format, moved by whole days", () => {
    assert.equal(resolve('{{$date}}').s, '2026-03-05');
    assert.equal(resolve('{{$date -5}}').s, '2026-02-28');
    assert.equal(resolve('{{$date 0}}').s, '2026-03-05');
  });
  it('refuses malformed and unbounded arguments with a message naming the field and the variable', () => {
    const bad: [string, RegExp][] = [
      ['{{$randomInt a}}', /two whole numbers/],
      ['{{$randomInt 5 1}}', /greater than min/],
      ['{{$randomInt 1 99999999999999999999}}', /not a whole number/],
      ['{{$randomInt 0 5000000000000}}', /within ±/],
      ['{{$date 1000000}}', /too large/],
      ['{{$datetime}}', /needs a format/],
      ['{{$datetime iso8601 1 parsec}}', /unknown unit/],
      ['{{$datetime YYYY}}', /needs a format.*in quotes/],
      ['{{$datetime iso8601 +1 d}}', /without \+/],
      ['{{$timestamp 1 Q}}', /Q \(quarter\)/],
      ['{{$timestamp 999999999999 y}}', /years 1 to 9999/],
      ['{{$guid 1}}', /no arguments/],
      ['{{$nope}}', /unknown dynamic value/],
      ['{{}}', /empty variable/],
    ];
    for (const [s, re] of bad) {
      assert.throws(() => resolvePayloadVariables({ field: s }, undefined), (e: unknown) => e instanceof VariableError && e.variable === s && re.test(e.message) && e.message.startsWith('field: '), s);
    }
  });
  it('KNOWN_DYNAMIC_VARIABLES documents each value with its arguments', () => {
    assert.deepEqual(KNOWN_DYNAMIC_VARIABLES.map((d) => d.name), ['$guid', '$timestamp', '$datetime', '$localDatetime', '$randomInt', '$date']);
    for (const d of KNOWN_DYNAMIC_VARIABLES) assert.ok(d.description.length > 20, d.name);
  });
});

describe('variables: typing by the contract', () => {
  it('a string that is one variable takes the type the contract wants (int stays int, text where a string goes)', () => {
    const out = resolvePayloadVariables(v2({ TiresCovered: '{{$randomInt 1 5}}', InvoiceNumber: '{{$randomInt 1000 2000}}', CurrentMileage: '{{miles}}' }), 'v2-registrations', { ...fixed(0), environment: { miles: '1200' } }) as Any;
    assert.equal(out.Registrations[0].TiresCovered, 1);
    assert.equal(out.Registrations[0].InvoiceNumber, '1000');
    assert.equal(out.Registrations[0].CurrentMileage, '1200', 'a v2 int accepts digits too: the variable keeps its own type');
    const part = resolvePayloadVariables({ ...(PAYLOAD_KINDS.part.template as object), quantity: '{{q}}' }, 'part', { environment: { q: '7' } }) as Any;
    assert.equal(part.quantity, 7, 'a v3 integer gets a number from a numeric text variable');
    assert.ok(PAYLOAD_KINDS.part.schema.safeParse(Object.fromEntries(Object.entries(part).filter(([k]) => !k.startsWith('$')))).success);
  });
  it('embedded variables are textual; the input is not modified', () => {
    const input = { $schema: 'tpp://schemas/shop.json', uniqueId: 'NW-{{$randomInt 7 8}}-{{n}}' };
    const out = resolvePayloadVariables(input, 'shop', { environment: { n: 12 } }) as Any;
    assert.equal(out.uniqueId, 'NW-7-12');
    assert.equal(input.uniqueId, 'NW-{{$randomInt 7 8}}-{{n}}');
  });
});

describe('variables: environments and captures', () => {
  it('environmentVariables merges $shared under the environment', () => {
    assert.deepEqual(environmentVariables({ $shared: { a: 1, b: 2 }, local: { b: 3 }, sandbox: { c: 4 } }, 'local'), { a: 1, b: 3 });
    assert.deepEqual(environmentVariables('nonsense', 'local'), {});
  });
  it('environment variables may refer to others; a circle is refused', () => {
    const env = { year: '2026', inv: 'INV-{{year}}-{{$randomInt 5 6}}', a: '{{b}}', b: '{{a}}' };
    assert.equal((resolvePayloadVariables({ x: '{{inv}}' }, undefined, { environment: env }) as Any).x, 'INV-2026-5');
    assert.throws(() => resolvePayloadVariables({ x: '{{a}}' }, undefined, { environment: env }), /circle/);
    assert.throws(() => resolvePayloadVariables({ x: '{{missing}}' }, undefined, { environment: env }), /unknown variable/);
  });
  it('captureFromResponse merges the sent body and the answer of a create; the claim can then use it', () => {
    const sent = { $schema: 'tpp://schemas/tire-protection-registration.json', invoiceNumber: 'INV-9', enrollDate: '2026-03-05' };
    let captured = captureFromResponse('tire-protection-registration', sent, { id: 'r-1' }, {});
    captured = captureFromResponse('tire-protection-claim', { $registrationId: 'r-1', serviceInvoiceNumber: 'RO-1' }, { id: 44 }, captured);
    assert.deepEqual(captured.lastRegistration, { invoiceNumber: 'INV-9', enrollDate: '2026-03-05', id: 'r-1' });
    assert.equal(captured.lastClaim?.id, 44);
    assert.equal(captured.lastClaim?.registrationId, 'r-1');
    assert.equal(captureFromResponse('part', {}, undefined, captured), captured, 'kinds without a capture change nothing');
    const shop = captureFromResponse('shop', { uniqueId: 'NW-7' }, undefined, captured);
    assert.equal(shop.lastShop?.uniqueId, 'NW-7', 'a 204 create is captured from the sent body');
    const v2c = captureFromResponse('v2-registrations', { Registrations: [{ ShopID: 'S', InvoiceNumber: 'I' }] }, { Registrations: [{ status: 'created', RegistrationID: 9 }] }, {});
    assert.deepEqual(v2c.lastV2Registration, { ShopID: 'S', InvoiceNumber: 'I', status: 'created', RegistrationID: 9 });
    const out = resolvePayloadVariables({ $registrationId: '{{lastRegistration.id}}', serviceInvoiceNumber: 'RO-{{lastRegistration.invoiceNumber}}' }, 'tire-protection-claim', { captured }) as Any;
    assert.deepEqual(out, { $registrationId: 'r-1', serviceInvoiceNumber: 'RO-INV-9' });
  });
  it('a capture not made yet says what to send first; capture names come from the contract', () => {
    assert.throws(() => resolvePayloadVariables({ $registrationId: '{{lastRegistration.id}}' }, 'tire-protection-claim', {}), /no value yet.*lastRegistration/);
    assert.ok(isCaptureName('lastRegistration.id'));
    assert.ok(isCaptureName('lastRegistration.invoiceNumber'));
    assert.ok(isCaptureName('lastRegistration.customer.name'));
    assert.ok(isCaptureName('lastShop.uniqueId'));
    assert.ok(!isCaptureName('lastRegistration.nope'));
    const names = captureNames().map((c) => c.name);
    assert.deepEqual(names.sort(), ['lastClaim', 'lastMotorClubRegistration', 'lastRegistration', 'lastShop', 'lastV2Registration']);
  });
});
