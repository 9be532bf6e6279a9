import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { parseTree } from 'jsonc-parser';
import { z } from 'zod';
import { formatMoney, insertPropertiesEdit, validateText, type ValidationTarget } from '../../../src/core/diagnostics/engine';
import { LineIndex } from '../../../src/core/diagnostics/lineIndex';
import { pathKey, strictLocator } from '../../../src/core/diagnostics/locate';
import { treeLocator } from '../../../src/core/diagnostics/treeLocator';
import { findUnknownProperties, nearest } from '../../../src/core/contract/schemaWalk';
import type { JsonPath, Problem } from '../../../src/core/diagnostics/types';

const Item = z.object({
  ShopID: z.string().max(5, { error: 'at most 5 characters' }),
  Price: z.union([z.number(), z.string()]).optional(),
  ServiceType: z.enum(['REPLACE', 'REPAIR']).optional(),
  vehicle: z.object({ year: z.number(), make: z.string().optional() }).optional(),
});
const Body = z.object({ Items: z.array(Item) });
const target: ValidationTarget = { schema: Body };

const summary = (ps: Problem[]) => ps.map((p) => `${p.code}@${p.start}-${p.end}`);
const apply = (text: string, edits: readonly { offset: number; length: number; newText: string }[]) =>
  [...edits].sort((a, b) => b.offset - a.offset).reduce((t, e) => t.slice(0, e.offset) + e.newText + t.slice(e.offset + e.length), text);

/** Every path of a JSON value (root included). */
function allPaths(v: unknown, base: (string | number)[] = [], out: JsonPath[] = []): JsonPath[] {
  out.push(base);
  if (Array.isArray(v)) v.forEach((x, i) => allPaths(x, [...base, i], out));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) allPaths(x, [...base, k], out);
  return out;
}

describe('diagnostics engine (generic: text + zod schema -> problems)', () => {
  it('gives no problem for a valid document', () => {
    assert.deepEqual(validateText('{"Items": [{"ShopID": "A1"}]}', target), []);
  });

  it('reports an empty file, a top level that is not an object, and syntax errors at their place', () => {
    assert.deepEqual(summary(validateText('  \n', target)), ['empty-file@0-3']);
    const arr = validateText('[1, 2]', target);
    assert.deepEqual(summary(arr), ['not-object@0-6']);
    assert.match(arr[0]!.message, /not an array/);
    const broken = '{"Items": [{"ShopID": "A1",}]}';
    const ps = validateText(broken, target);
    assert.deepEqual(ps.map((p) => p.code), ['syntax']);
    assert.equal(ps[0]!.start, broken.indexOf('}]'));
    const comment = validateText('{"Items": [] // note\n}', target);
    assert.deepEqual(comment.map((p) => p.message), ['JSON syntax: comments are not permitted in JSON']);
  });

  it('still checks the content of a document with a syntax error', () => {
    const text = '{"Items": [{"ShopID": "ABCDEFG" "Price": 1}]}';
    const ps = validateText(text, target);
    assert.deepEqual(ps.map((p) => p.code).sort(), ['syntax', 'too_big']);
    const big = ps.find((p) => p.code === 'too_big')!;
    assert.equal(text.slice(big.start, big.end), '"ABCDEFG"');
  });

  it('puts a wrong value on the value, with the limit and the actual length', () => {
    const text = '{\n  "Items": [\n    { "ShopID": "ABCDEFG" }\n  ]\n}';
    const [p] = validateText(text, target);
    assert.equal(p!.message, 'ShopID: at most 5 characters, got 7');
    assert.equal(text.slice(p!.start, p!.end), '"ABCDEFG"');
    assert.deepEqual(p!.range, { start: { line: 2, character: 16 }, end: { line: 2, character: 25 } });
    assert.deepEqual(p!.path, ['Items', 0, 'ShopID']);
  });

  it("puts a missing property on the enclosing object's key, on the item's { in an array, and on { for the root", () => {
    const text = '{ "Items": [ { "vehicle": { "make": "Ford" } }, {} ] }';
    const ps = validateText(text, target);
    assert.deepEqual(
      ps.map((p) => [p.message, text.slice(p.start, p.end)]),
      [
        ['ShopID: required field is missing', '{'],
        ['year: required field is missing', '"vehicle"'],
        ['ShopID: required field is missing', '{'],
      ],
    );
    assert.equal(ps[0]!.start, text.indexOf('{ "vehicle"'));
    assert.equal(ps[2]!.start, text.indexOf('{}'));
    const root = validateText('{"$schema": "x"}', target);
    assert.deepEqual(summary(root), ['required@0-1']);
  });

  it('warns about unknown properties on the key, with a did-you-mean for near misses, never for $ meta', () => {
    const text = '{"$schema": "s", "$registrationId": "1", "Items": [{"ShopID": "A", "ServiceTyp": "REPAIR", "zzz": 1}]}';
    const ps = validateText(text, target);
    assert.deepEqual(
      ps.map((p) => [p.severity, p.code, p.message, text.slice(p.start, p.end)]),
      [
        ['warning', 'unknown-property', 'ServiceTyp: unknown property; did you mean ServiceType?', '"ServiceTyp"'],
        ['warning', 'unknown-property', 'zzz: unknown property', '"zzz"'],
      ],
    );
    const fixed = apply(text, ps[0]!.fix!.edits);
    assert.ok(fixed.includes('"ServiceType": "REPAIR"'));
  });

  it('does not suggest a name the object already has', () => {
    const found = findUnknownProperties({ ShopID: 'a', ShopId: 'b' }, Item);
    assert.deepEqual(found.map((f) => [f.path, f.suggestion]), [[['ShopId'], undefined]]);
  });

  it('offers the right-case value of an enum as a quick fix', () => {
    const text = '{"Items": [{"ShopID": "A", "ServiceType": "replace"}]}';
    const [p] = validateText(text, target);
    assert.equal(p!.code, 'enum');
    assert.equal(p!.fix?.title, 'Change to REPLACE');
    assert.deepEqual(validateText(apply(text, p!.fix!.edits), target), []);
  });

  it('adds every missing property of an object in one fix, with typed placeholders, keeping the indentation', () => {
    const text = '{\n    "Items": [\n        {\n            "Price": 1\n        }\n    ]\n}';
    const ps = validateText(text, target);
    assert.deepEqual(ps.map((p) => p.code), ['required']);
    const fixed = apply(text, ps[0]!.fix!.edits);
    assert.equal(fixed, '{\n    "Items": [\n        {\n            "Price": 1,\n            "ShopID": ""\n        }\n    ]\n}');
    assert.deepEqual(validateText(fixed, target), []);
    const edit = insertPropertiesEdit('{}', 0, 2, [['a', 1], ['b', { c: [] }]]);
    assert.equal(apply('{}', [edit]), '{\n  "a": 1,\n  "b": {\n    "c": []\n  }\n}');
  });

  it('uses the target placeholder for a missing property when it has one', () => {
    const t: ValidationTarget = { schema: Body, placeholderOf: (p) => (p[p.length - 1] === 'ShopID' ? 'S-1' : undefined) };
    const text = '{"Items": [{}]}';
    const [p] = validateText(text, t);
    assert.equal(JSON.parse(apply(text, p!.fix!.edits)).Items[0].ShopID, 'S-1');
  });

  it('runs semantic checks on the plain value and locates their findings', () => {
    const t: ValidationTarget = {
      schema: Body,
      checks: [
        function* (root) {
          const items = root.Items as { ShopID: string }[];
          for (let i = 0; i < items.length; i++) if (items[i]!.ShopID === 'X') yield { path: ['Items', i, 'ShopID'], severity: 'warning', code: 'no-x', message: 'ShopID: X is reserved' };
        },
      ],
    };
    const text = '{"Items": [{"ShopID": "A"}, {"ShopID": "X"}]}';
    assert.deepEqual(summary(validateText(text, t)), [`no-x@${text.lastIndexOf('"X"')}-${text.lastIndexOf('"X"') + 3}`]);
  });

  it('points at the last occurrence of a duplicated key (JSON.parse semantics)', () => {
    const text = '{"Items": [{"ShopID": "A", "ShopID": "ABCDEFGH"}]}';
    const [p] = validateText(text, target);
    assert.equal(text.slice(p!.start, p!.end), '"ABCDEFGH"');
  });

  it('handles escaped keys and strings with quotes and brackets', () => {
    const text = '{"Items": [{"ShopID": "a\\"]}{", "Sh\\u006fpID2": 1}, {"ShopID": "ABCDEFG"}]}';
    const ps = validateText(text, target);
    assert.deepEqual(ps.map((p) => [p.code, text.slice(p.start, p.end)]), [
      ['unknown-property', '"Sh\\u006fpID2"'],
      ['too_big', '"ABCDEFG"'],
    ]);
  });

  it('computes line and character with LF, CRLF and CR line ends', () => {
    const idx = new LineIndex('a\r\nbc\nd\re');
    assert.deepEqual(idx.positionAt(0), { line: 0, character: 0 });
    assert.deepEqual(idx.positionAt(4), { line: 1, character: 1 });
    assert.deepEqual(idx.positionAt(6), { line: 2, character: 0 });
    assert.deepEqual(idx.positionAt(8), { line: 3, character: 0 });
    assert.equal(idx.offsetAt({ line: 1, character: 1 }), 4);
    const text = '{\r\n  "Items": [\r\n    {"ShopID": "ABCDEFG"}\r\n  ]\r\n}';
    const [p] = validateText(text, target);
    assert.deepEqual(p!.range.start, { line: 2, character: 15 });
  });

  it('positionsAt gives, in the order asked, what positionAt gives for each offset, LF, CR LF and CR alike (property)', () => {
    const line = fc.string({ maxLength: 6 }).map((s) => s.replace(/[\r\n]/g, ''));
    const text = fc.tuple(fc.array(line, { maxLength: 8 }), fc.array(fc.constantFrom('\n', '\r\n', '\r'), { minLength: 8, maxLength: 8 })).map(([lines, ends]) => lines.map((l, i) => l + ends[i]).join(''));
    fc.assert(
      fc.property(text, fc.array(fc.integer({ min: -2, max: 80 }), { maxLength: 12 }), (t, offsets) => {
        const expected = offsets.map((o) => new LineIndex(t).positionAt(o));
        assert.deepEqual(new LineIndex(t).positionsAt(offsets), expected);
      }),
    );
  });

  it('locates every path of any JSON text exactly as the jsonc-parser tree does (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(undefined, 0, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const paths = allPaths(JSON.parse(text));
        const fast = strictLocator(text)(paths);
        const tree = treeLocator(parseTree(text))(paths);
        for (const p of paths) assert.deepEqual(fast.get(pathKey(p)), tree.get(pathKey(p)), `${pathKey(p)} in ${text}`);
      }),
      { numRuns: 300 },
    );
  });

  it('locates any subset of paths, skipping the other values, exactly as the jsonc-parser tree does (property)', () => {
    // Skipped containers are crossed by hopping between quotes and brackets: strings holding "{}[]\\ must not fool it.
    const tricky = fc.constantFrom('{', '}', '[', ']', '"', '\\', '\\"', '{"a":[1]}', 'x\\\\', ' ');
    const value = fc.jsonValue({ maxDepth: 4 }).chain((v) => fc.tuple(fc.constant(v), fc.array(tricky, { maxLength: 3 })));
    fc.assert(
      fc.property(value, fc.constantFrom(undefined, 0, 2, '\t'), fc.infiniteStream(fc.boolean()), ([raw, extras], indent, pick) => {
        const text = JSON.stringify({ before: extras, value: raw, after: [extras, { k: extras.join('') }] }, null, indent);
        const every = allPaths(JSON.parse(text));
        const some = every.filter(() => pick.next().value as boolean);
        const fast = strictLocator(text)(some);
        const tree = treeLocator(parseTree(text))(some);
        assert.equal(fast.size, tree.size, text);
        for (const p of some) assert.deepEqual(fast.get(pathKey(p)), tree.get(pathKey(p)), `${pathKey(p)} in ${text}`);
      }),
      { numRuns: 500 },
    );
  });

  it('locates the properties of flat records written by hand: repeated keys (the last wins), values equal to key names, white space, escapes (property)', () => {
    // The oracle is the text itself, written token by token here: no parser is trusted.
    const name = fc.constantFrom('a', 'b', 'ShopID', 'a b', '{', 'x"y', 'é');
    const scalar = fc.oneof(name.map((n) => JSON.stringify(n)), fc.constantFrom('1', '-2.5e3', 'true', 'null', '"\\\\"', '"}]"', '"\\"a\\":1"', '"{\\"a\\"}"'));
    const space = fc.constantFrom('', ' ', '\n  ', '\t');
    const record = fc.array(fc.tuple(name, scalar, space, space), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 6 }), fc.infiniteStream(fc.boolean()), (records, pick) => {
        let text = '{"list": [';
        const expected = new Map<string, { start: number; end: number; keyStart: number; keyEnd: number }>();
        records.forEach((props, i) => {
          text += `${i ? ', ' : ''}{`;
          props.forEach(([k, v, s1, s2], j) => {
            text += `${j ? ',' : ''}${s1}`;
            const keyStart = text.length;
            text += JSON.stringify(k);
            const keyEnd = text.length;
            text += `${s2}:${s1}`;
            expected.set(pathKey(['list', i, k]), { start: text.length, end: text.length + v.length, keyStart, keyEnd });
            text += `${v}${s2}`;
          });
          text += '}';
        });
        text += ']}';
        JSON.parse(text);
        const paths = [...expected.keys()].filter(() => pick.next().value as boolean).map((k) => JSON.parse(k) as JsonPath);
        paths.push(['list', 0, 'missing']);
        const found = strictLocator(text)(paths);
        assert.equal(found.size, paths.length - 1, text);
        for (const p of paths.slice(0, -1)) assert.deepEqual(found.get(pathKey(p)), expected.get(pathKey(p)), `${pathKey(p)} in ${text}`);
      }),
      { numRuns: 1000 },
    );
  });

  it('locates a path after a flat list too long for the one-expression skip (over 4096 strings holding "{[)', () => {
    const text = JSON.stringify({ list: Array.from({ length: 5000 }, (_, i) => `{"[${i}\\`), rec: { a: ['}', { b: 1 }], c: 2 }, after: { x: 1 } }, null, 1);
    const paths: JsonPath[] = [['after', 'x'], ['rec', 'c']]; // list and rec.a are skipped
    const fast = strictLocator(text)(paths);
    const tree = treeLocator(parseTree(text))(paths);
    for (const p of paths) assert.deepEqual(fast.get(pathKey(p)), tree.get(pathKey(p)), pathKey(p));
    assert.equal(fast.size, 2);
  });

  it('caps the number of problems', () => {
    const text = JSON.stringify({ Items: Array.from({ length: 50 }, () => ({ ShopID: 'ABCDEFGHI' })) });
    assert.equal(validateText(text, target, { maxProblems: 10 }).length, 10);
  });

  it('fills the cap with problems past issues that make none ({{variables}} known at send time only)', () => {
    const items = [...Array.from({ length: 6 }, () => ({ ShopID: '{{shopVariable}}' })), ...Array.from({ length: 3 }, () => ({ ShopID: 'TOOLONG' }))];
    const ps = validateText(JSON.stringify({ Items: items }), target, { maxProblems: 2, variables: new Set(['shopVariable']) });
    assert.deepEqual(ps.map((p) => [p.code, p.path.join('.')]), [
      ['too_big', 'Items.6.ShopID'],
      ['too_big', 'Items.7.ShopID'],
    ]);
  });

  it('formats money with 2 decimals, keeping strings strings', () => {
    assert.equal(formatMoney('12.5'), '"12.50"');
    assert.equal(formatMoney(12.5), '12.50');
    assert.equal(formatMoney('$1,234.5'), '"1234.50"');
    assert.equal(formatMoney('12,5'), '"12.50"');
    assert.equal(formatMoney('abc'), undefined);
    assert.equal(formatMoney(true), undefined);
  });

  it('suggests near names only', () => {
    assert.equal(nearest('InvoiceNumer', ['InvoiceNumber', 'ShopID']), 'InvoiceNumber');
    assert.equal(nearest('shopid', ['InvoiceNumber', 'ShopID']), 'ShopID');
    assert.equal(nearest('Color', ['InvoiceNumber', 'ShopID']), undefined);
  });
});
