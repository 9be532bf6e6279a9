import * as assert from 'node:assert/strict';
import { getLanguageService, TextDocument, type CompletionItem } from 'vscode-json-languageservice';
import { jsonSchemaFor, kindFromSchemaUri, type PayloadKind } from '../../../src/core/contract';
import { editorSchema } from '../../../src/core/diagnostics/editorSchema';
import { diagnosePayload } from '../../../src/core/diagnostics/payload';

/**
 * Completing a property inserts a value the contract accepts (today's date for dates, not `""`).
 * Completion runs through vscode-json-languageservice, the library behind VS Code's JSON support, on the schema the
 * extension serves; the snippet's variables are expanded as the editor expands them.
 */

const service = getLanguageService({
  schemaRequestService: async (uri) => {
    const kind = kindFromSchemaUri(uri);
    if (!kind) throw new Error(`no schema ${uri}`);
    return JSON.stringify(editorSchema(jsonSchemaFor(kind)));
  },
});

/** The completion of `property` inside the object holding `|` in `text`. */
async function complete(text: string, property: string): Promise<CompletionItem> {
  const offset = text.indexOf('|');
  const doc = TextDocument.create('file:///p.json', 'json', 1, text.replace('|', ''));
  const list = await service.doComplete(doc, doc.positionAt(offset), service.parseJSONDocument(doc));
  const item = list?.items.find((i) => i.label === property);
  return item ?? assert.fail(`no completion ${property} (got ${list?.items.map((i) => i.label).join(', ')})`);
}

const today = new Date();
const pad = (n: number) => String(n).padStart(2, '0');
/** The editor's expansion of the snippet variables the schema uses, and placeholders reduced to their text. */
function expand(snippet: string): string {
  return snippet
    .replace(/\$\{CURRENT_YEAR\}/g, String(today.getFullYear()))
    .replace(/\$\{CURRENT_MONTH\}/g, pad(today.getMonth() + 1))
    .replace(/\$\{CURRENT_DATE\}/g, pad(today.getDate()))
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\d+/g, '');
}

/** Completes `property` in a file of `kind` at the object `path` and sends the inserted value through the diagnostics. */
async function insertAndCheck(kind: PayloadKind, property: string, wrap: (inner: string) => string = (s) => s): Promise<{ inserted: string; problems: string[] }> {
  const head = `{ "$schema": "tpp://schemas/${kind}.json", `;
  const item = await complete(`${head}${wrap('|')} }`, property);
  const inserted = expand(typeof item.insertText === 'string' ? item.insertText : item.label);
  const doc = `${head}${wrap(inserted)} }`;
  const problems = (diagnosePayload(doc)?.problems ?? []).filter((p) => p.path[p.path.length - 1] === property && p.code !== 'required').map((p) => `${p.code}: ${p.message}`);
  return { inserted, problems };
}

const inRecord = (array: string) => (s: string) => `"${array}": [ { ${s} } ]`;

describe('completion inserts valid values', () => {
  it("a v3 date inserts today's date in the spec's format", async () => {
    const r = await insertAndCheck('tire-protection-registration', 'enrollDate');
    const d = `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
    assert.equal(r.inserted, `"enrollDate": "${d}"`);
    assert.deepEqual(r.problems, []);
  });
  it("a v2 datetime inserts today's date", async () => {
    const r = await insertAndCheck('v2-registrations', 'PlanEnrollDate', inRecord('Registrations'));
    assert.match(r.inserted, /"PlanEnrollDate": "\d{4}-\d{2}-\d{2}"/);
    assert.deepEqual(r.problems, []);
  });
  it('ints insert a whole number (v2 int and v3 integer)', async () => {
    const v2 = await insertAndCheck('v2-registrations', 'TiresCovered', inRecord('Registrations'));
    assert.equal(v2.inserted, '"TiresCovered": 1');
    assert.deepEqual(v2.problems, []);
    const v3 = await insertAndCheck('part', 'quantity');
    assert.equal(v3.inserted, '"quantity": 1');
    assert.deepEqual(v3.problems, []);
  });
  it('a four-digit year inserts this year', async () => {
    const r = await insertAndCheck('v2-registrations', 'VehicleYear', inRecord('Registrations'));
    assert.equal(r.inserted, `"VehicleYear": "${today.getFullYear()}"`);
    assert.deepEqual(r.problems, []);
  });
  it('money inserts 0.00 (v2 money and a v3 number)', async () => {
    const v2 = await insertAndCheck('v2-registrations', 'TPPPrice', inRecord('Registrations'));
    assert.equal(v2.inserted, '"TPPPrice": 0.00');
    assert.deepEqual(v2.problems, []);
    const v3 = await insertAndCheck('part', 'cost');
    assert.equal(v3.inserted, '"cost": 0.00');
    assert.deepEqual(v3.problems, []);
  });
  it('an enum inserts its first value', async () => {
    const r = await insertAndCheck('v2-claims', 'ServiceType', inRecord('Claims'));
    assert.equal(r.inserted, '"ServiceType": "REPLACE"');
    assert.deepEqual(r.problems, []);
  });
  it('the value of an enum still completes to every allowed value', async () => {
    const text = '{ "$schema": "tpp://schemas/v2-claims.json", "Claims": [ { "ServiceType": | } ] }';
    const offset = text.indexOf('|');
    const doc = TextDocument.create('file:///p.json', 'json', 1, text.replace('|', ''));
    const list = await service.doComplete(doc, doc.positionAt(offset), service.parseJSONDocument(doc));
    assert.deepEqual(list?.items.map((i) => i.label).sort(), ['"REPAIR"', '"REPLACE"']);
  });
  it('text puts the cursor between quotes', async () => {
    const item = await complete('{ "$schema": "tpp://schemas/part.json", | }', 'make');
    assert.equal(item.insertText, '"make": "$1"');
  });
});
