/**
 * The editor's checks of flow files agree with `tpp run` (docs/flows-editor.md, What the editor checks as `tpp run`
 * does), without the editor: every `.http` file of examples/ has no problem; `{{row.<column>}}` against the data
 * file's columns (src/extension/flows/rowProblems.ts, through the backfill's reader); an inline body checked as the
 * kind of the endpoint its request line names, the kind told by the property the spec names
 * (../shared/spec/partner-interface.md, Endpoints; Version 2 record endpoints), never by which kind fits best; and a
 * `{{…}}` without quotes accepted where a number goes, refused where text goes.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { dataDirectiveOf } from '../../../src/core/backfill/directive';
import { checkFlowForRun, environmentVariablesOf, parseFlow } from '../../../src/core/flows';
import type { FlowFile, FlowProblem } from '../../../src/core/flows/types';
import { bodyContractProblems } from '../../../src/extension/flows/bodyContract';
import { firstRecordKeys, rowProblems, rowReferences, type DataColumns } from '../../../src/extension/flows/rowProblems';

const EXAMPLES = resolve(__dirname, '..', '..', '..', 'examples');
const ENV = Object.keys(environmentVariablesOf({ id: 'local', baseUrl: '' }));
const show = (ps: readonly FlowProblem[]) => ps.map((p) => `${p.file}:${p.line}:${p.column} ${p.code ?? ''} ${p.message}`);

function httpFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? httpFiles(join(dir, e.name)) : e.name.endsWith('.http') ? [join(dir, e.name)] : []));
}

/** What the editor's diagnostics hold for a flow on disk (src/extension/flows/diagnostics.ts, without the editor). */
async function editorProblems(path: string): Promise<FlowProblem[]> {
  const text = readFileSync(path, 'utf8');
  const flow = parseFlow(text, relative(EXAMPLES, path));
  const written = dataDirectiveOf(text);
  const data: DataColumns | undefined = written === undefined ? undefined : { written, line: 1, ...(await firstRecordKeys(resolve(dirname(path), written), []).then((columns) => (columns ? { columns } : {}))) };
  const rows = rowProblems(flow, data);
  const names = new Set([...ENV, ...(flow.declared ?? []).map((d) => d.name), ...rows.names]);
  return [...flow.problems, ...(await checkFlowForRun(flow, { names })), ...rows.problems, ...bodyContractProblems(flow)];
}

const flowOf = (lines: readonly string[]): FlowFile => parseFlow(lines.join('\n'), 'f.http');
const at = (lines: readonly string[], line: number, text: string) => ({ line, column: (lines[line - 1] as string).indexOf(text) + 1 });

describe('flows in the editor: the checks agree with tpp run', () => {
  it('every .http file of examples/ has no problem (the examples workspace opens clean)', async () => {
    const files = httpFiles(EXAMPLES);
    assert.ok(files.length >= 6, `examples/ holds the flows: ${files.join(', ')}`);
    const problems = (await Promise.all(files.map(editorProblems))).flat();
    assert.deepEqual(show(problems), []);
  });

  describe('row columns', () => {
    const FLOW = ['# @data ./rows.csv', '', 'POST {{baseUrl}}/x', '', '{ "a": "{{row.invoice}}", "b": "{{row.invioce}}" }', ''];
    const data: DataColumns = { written: './rows.csv', line: 1, columns: ['invoice', 'shop'] };

    it('a column of the data file is known; one it lacks is an error naming the columns it has', () => {
      const { names, problems } = rowProblems(flowOf(FLOW), data);
      assert.deepEqual(names, ['row.invoice', 'row.invioce']);
      assert.deepEqual(show(problems), [`f.http:5:${at(FLOW, 5, '{{row.invioce}}').column} flow-row-column {{row.invioce}}: ./rows.csv has no column invioce (its columns: invoice, shop).`]);
      assert.deepEqual(problems[0]?.end, { line: 5, column: at(FLOW, 5, '{{row.invioce}}').column + '{{row.invioce}}'.length });
    });

    it('a row value without # @data, and a data file that cannot be used, are errors', () => {
      const without = rowProblems(flowOf(FLOW.slice(1)), undefined);
      assert.equal(without.problems.length, 2);
      assert.match(without.problems[0]?.message ?? '', /^\{\{row\.invoice\}\}: a row value comes from a data file: name it with a line # @data/);
      const unreadable = rowProblems(flowOf(FLOW), { written: './rows.csv', line: 1, error: 'cannot read ./rows.csv (ENOENT)' });
      assert.deepEqual(show(unreadable.problems), ['f.http:1:1 flow-row-column # @data ./rows.csv: cannot read ./rows.csv (ENOENT).']);
    });

    it('reads the columns with the backfill reader: a CSV header, the first JSON record; a header without rows is checked against the columns used', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tpp-columns-'));
      try {
        writeFileSync(join(dir, 'rows.csv'), '\uFEFFinvoice,shop\nA-1,S-1\nA-2,S-2\n');
        writeFileSync(join(dir, 'rows.json'), '[{"invoice":"A-1","year":2021},{"invoice":"A-2"}]');
        writeFileSync(join(dir, 'header.csv'), 'invoice,shop\n');
        assert.deepEqual(await firstRecordKeys(join(dir, 'rows.csv'), []), ['invoice', 'shop']);
        assert.deepEqual(await firstRecordKeys(join(dir, 'rows.json'), []), ['invoice', 'year']);
        assert.equal(await firstRecordKeys(join(dir, 'header.csv'), []), undefined);
        await assert.rejects(firstRecordKeys(join(dir, 'header.csv'), ['invoice', 'invioce']), /the header has no column invioce.*\(columns: invoice, shop\)/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('finds row references in the URL, headers, body, expected values and file variables', () => {
      const refs = rowReferences(flowOf(['@inv = INV-{{row.invoice}}', 'GET {{baseUrl}}/x/{{row.id}}', 'X-Shop: {{row.shop}}', '', '?? body $.n == {{row.n}}', '']));
      assert.deepEqual(refs.map((r) => r.column).sort(), ['id', 'invoice', 'n', 'shop']);
    });
  });

  describe('inline bodies against the endpoint the request line names', () => {
    it('a version 2 body is checked as the kind its array property names, never as the kind with fewest errors', () => {
      const lines = ['POST {{v2BaseUrl}}/v2/partners/{{company}}', 'Content-Type: application/json', '', '{ "Registrations": [ { "ShopID": "S-1" } ] }', ''];
      const problems = bodyContractProblems(flowOf(lines));
      assert.ok(problems.length > 0 && problems.every((p) => p.message.startsWith('v2-registrations: ')), show(problems).join('\n'));
      assert.ok(problems.some((p) => /InvoiceNumber/.test(p.message)), show(problems).join('\n'));
    });

    it('a body that names none or several of the kinds of its method and path is an error saying which property decides', () => {
      const none = bodyContractProblems(flowOf(['POST {{v2BaseUrl}}/v2/partners/acme', '', '{ "Registration": [] }', '']));
      assert.deepEqual(none.map((p) => [p.line, p.code]), [[3, 'contract-kind']]);
      assert.match(none[0]?.message ?? '', /Registrations \(v2-registrations\), Claims \(v2-claims\), Sales \(v2-sales\), Cancellations \(v2-cancellations\); it has none/);
      const both = bodyContractProblems(flowOf(['PATCH {{baseUrl}}/motor-club/registrations/{{id}}', '', '{ "customer": { "name": "A" }, "cancelledOn": "2025-01-01T00:00:00Z" }', '']));
      assert.match(both[0]?.message ?? '', /customer \(motor-club-customer\), cancelledOn \(cancellation\); it has customer and cancelledOn/);
      const cancel = bodyContractProblems(flowOf(['PATCH {{baseUrl}}/motor-club/registrations/{{id}}', '', '{ "cancelledOn": "{{$datetime iso8601}}" }', '']));
      assert.deepEqual(show(cancel), []);
    });

    it('a {{…}} without quotes stands where a number goes; where text goes it is an error; other problems keep their place', () => {
      const lines = [
        'POST {{baseUrl}}/tire-protection/registrations',
        'Content-Type: application/json',
        '',
        '{ "product_id": "tp-road-hazard-36", "invoiceNumber": "INV-1", "enrollDate": "2025-01-01",',
        '  "customer": { "name": "A", "email": "a@example.com" },',
        '  "vehicle": { "year": {{row.vehicleYear}}, "make": {{row.make}}, "model": 7 },',
        '  "tires": [ { "make": "a", "model": "b", "size": "c", "retailPrice": {{row.tirePrice}} } ] }',
        '',
      ];
      const problems = bodyContractProblems(flowOf(lines));
      const unquoted = problems.filter((p) => p.code === 'contract-unquoted');
      assert.deepEqual(unquoted.map((p) => [p.line, p.column, p.end?.column]), [[6, at(lines, 6, '{{row.make}}').column, at(lines, 6, '{{row.make}}').column + '{{row.make}}'.length]]);
      assert.match(unquoted[0]?.message ?? '', /vehicle\.make: \{\{row\.make\}\} without quotes is sent as its value's text, and make is text: write "\{\{row\.make\}\}"/);
      const model = problems.find((p) => /model/.test(p.message) && p.code !== 'contract-unquoted');
      assert.deepEqual(model && [model.line, model.column], [6, at(lines, 6, '7 }').column], `the problem after two placeholders is at its own place: ${show(problems).join('\n')}`);
      assert.ok(!problems.some((p) => p.code === 'contract-syntax'), 'no JSON syntax error');
      assert.equal(problems.length, 2, show(problems).join('\n'));
    });
  });

  describe("the Problems panel, which knows no environment", () => {
    it('judges body file paths with the reader it is given, and leaves {{$dotenv}} to a run, which knows its .env.<environment>', async () => {
      const lines = ['### one', 'POST {{baseUrl}}/tire-protection/registrations', 'X-Key: {{$dotenv API_KEY}}', '', '< ./body.json', ''];
      const asked: string[] = [];
      // What the editor's Problems pass: a reader that judges the path and reads nothing (src/extension/flows/index.ts).
      const judge = async (path: string) => (asked.push(path), '');
      const problems = await checkFlowForRun(flowOf(lines), { names: new Set(ENV), readFile: judge });
      assert.deepEqual(asked, ['./body.json'], 'the body file is judged, and no .env is looked for');
      assert.deepEqual(show(problems), [], 'no problem: $dotenv is not judged without the run\'s environment');
      // A run knows its environment: the same flow with a .env that lacks the name is refused before sending.
      const run = await checkFlowForRun(flowOf(lines), { names: new Set(ENV), readFile: async (path) => (path.endsWith('.env') ? 'OTHER=1\n' : '{}'), environmentId: 'local' });
      assert.match(show(run).join('\n'), /\{\{\$dotenv API_KEY\}\}: \.\/\.env(\.local)? has no API_KEY/);
    });
  });
});
