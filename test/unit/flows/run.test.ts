/**
 * The flow runner and `tpp run` against the real Local sandbox, in-process (src/core/flows/run.ts,
 * src/cli/commands/run.ts; docs/flows.md): examples/flows/first-steps.http passes request by request, the exit codes
 * 0/1/2/3, the JUnit XML, nothing sent when a file has an error, references that cannot be resolved, secrets masked.
 */
import * as assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli } from '../../../src/cli/cli';
import { parseFlow, runFlow, runFlows, type FlowEnvironment, type FlowFile } from '../../../src/core/flows';
import { generateKeyMaterial, importPrivateKeyPem } from '../../../src/core/jwt/keys';
import { TokenMinter } from '../../../src/core/jwt/mint';
import { startSandbox, type SandboxHandle } from '../../../src/core/sandbox/server';

const PARTNER = 'P-FLOW-1';
const FLOWS = resolve(__dirname, '../../../examples/flows');

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

describe('flows: runner and tpp run against the Local sandbox', function () {
  this.timeout(60_000);
  let sb: SandboxHandle;
  let dir: string;
  let keyFile: string;
  let environment: FlowEnvironment;
  const flags = () => ['--base-url', sb.v3BaseUrl, '--iss', PARTNER, '--key', keyFile];
  const flowFile = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const run = (text: string, extra: Partial<Parameters<typeof runFlow>[1]> = {}) => runFlow(parseFlow(text, 'inline.http'), { environment, readFile: (p) => Promise.resolve(readFileSync(join(dir, p), 'utf8')), ...extra });

  before(async () => {
    const key = await generateKeyMaterial('P-256');
    dir = mkdtempSync(join(tmpdir(), 'tpp-flows-'));
    keyFile = join(dir, 'key.pem');
    writeFileSync(keyFile, key.pkcs8Pem);
    sb = await startSandbox({ partners: [{ id: PARTNER, spkiPem: createPublicKey(key.pkcs8Pem).export({ type: 'spki', format: 'pem' }).toString() }] });
    const k = importPrivateKeyPem(key.pkcs8Pem);
    const minter = new TokenMinter();
    const origin = new URL(sb.v3BaseUrl).origin;
    environment = { id: 'local', baseUrl: sb.v3BaseUrl, partnerId: PARTNER, token: () => minter.mint(k, { iss: PARTNER, aud: sb.v3BaseUrl }), v2Token: () => minter.mint(k, { iss: PARTNER, aud: origin }) };
  });
  after(async () => {
    await sb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs examples/flows/first-steps.http: every request passes, in order, with masked exchanges', async () => {
    const file = parseFlow(readFileSync(join(FLOWS, 'first-steps.http'), 'utf8'), 'first-steps.http');
    assert.deepEqual(file.problems, []);
    const started: string[] = [];
    const results = await runFlow(file, { environment, readFile: () => Promise.reject(new Error('no body files')), listener: { onRequestStart: (_f, r) => started.push(r.label) } });
    assert.deepEqual(
      results.map((r) => `${r.outcome} ${r.exchange?.response?.status}`),
      ['passed 201', 'passed 200', 'passed 201', 'passed 200', 'passed 204', 'passed 409'],
      results.map((r) => r.message ?? '').join('\n'),
    );
    assert.equal(started.length, 6);
    assert.ok(results.every((r) => r.assertions.length > 0 && r.assertions.every((a) => a.passed)));
    assert.equal(results[0]?.exchange?.endpointId, 'createTireProtectionRegistration');
    assert.doesNotMatch(JSON.stringify(results), /eyJ[\w-]{20,}\.[\w-]+\.[\w-]+/, 'no token in any exchange');
  });

  it('tpp run: exit 0 and a JUnit XML report with a testsuite per file and a testcase per request', async () => {
    const out = join(dir, 'report.xml');
    const r = await cli('run', join(FLOWS, 'first-steps.http'), ...flags(), '--reporter', 'junit', '--out', out);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const xml = readFileSync(out, 'utf8');
    assert.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="tpp run" tests="6" failures="0" errors="0" skipped="0" time="\d+\.\d{3}">/);
    assert.equal(xml.match(/<testsuite /g)?.length, 1);
    assert.equal(xml.match(/<testcase /g)?.length, 6);
    assert.match(xml, /<testcase name="A second cancellation is refused \(spec: a registration can be cancelled only once\)" classname="[^"]*first-steps\.http" file="[^"]*" line="81" time="\d+\.\d{3}">/);
    assert.match(r.stdout, /6 passed \(6 requests in 1 file/);
  });

  it('tpp run: exit 1 when an assertion fails; the failure and the skipped request are in the XML', async () => {
    const r = await cli('run', join(FLOWS, 'fails-on-purpose.http'), ...flags(), '--reporter', 'junit');
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /tests="3" failures="1" errors="0" skipped="1"/);
    assert.match(r.stdout, /<failure type="assertion" message="\?\? status == 200: expected status == 200, but it was 404\.">/);
    assert.match(r.stdout, /<skipped message="Not run: /);
    const pretty = await cli('run', join(FLOWS, 'fails-on-purpose.http'), ...flags());
    assert.match(pretty.stdout, /✘ .*fails-on-purpose\.http:13 .* → 404/);
    assert.match(pretty.stdout, /1 passed, 1 failed, 1 skipped/);
    assert.doesNotMatch(pretty.stdout, /\r/, 'no progress line when stdout is not a terminal');
    let tty = '';
    const code = await runCli(['run', join(FLOWS, 'fails-on-purpose.http'), ...flags()], { stdout: { write: (t: string) => (tty += t), isTTY: true } as { write(t: string): unknown }, stderr: { write: () => undefined } });
    assert.equal(code, 1);
    assert.ok(tty.includes('\r\u001b[2K1/3 '), 'a progress line on a terminal');
    assert.match(tty, /1\/3 [^\n]*fails-on-purpose\.http: An unknown registration/);
  });

  it('tpp run: exit 2 and nothing sent when a file has an error (syntax, unknown variable, missing < file, bad option)', async () => {
    const invoice = `FLOW-NOTSENT-${Date.now()}`;
    const good = `POST {{baseUrl}}/tire-protection/registrations\nContent-Type: application/json\n\n{"product_id":"p","invoiceNumber":"${invoice}","enrollDate":"2025-01-01","customer":{"name":"A","email":"a@example.com"},"tires":[]}\n`;
    const bad = flowFile('bad.http', `${good}###\nFETCH {{baseUrl}}/x\n`);
    const r = await cli('run', bad, ...flags());
    assert.equal(r.code, 2);
    assert.match(r.stderr, /bad\.http:6:1: error: Unknown method 'FETCH'/);
    assert.match(r.stderr, /nothing was sent/);
    const unknown = await cli('run', flowFile('unknown.http', `GET {{baseUrl}}/x/{{shopId}}`), ...flags());
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown\.http:1:19: error: \{\{shopId\}\}: unknown variable shopId/);
    const missing = await cli('run', flowFile('missing.http', `${good.split('\n\n')[0]}\n\n< ./nope.json\n`), ...flags());
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing\.http:4:1: error: Cannot read the body file \.\/nope\.json \(ENOENT\)/);
    assert.equal((await cli('run', bad, ...flags(), '--reporter', 'tap')).code, 2);
    assert.equal((await cli('run', join(dir, 'none.http'), ...flags())).code, 2);
    const check = await run(`GET {{baseUrl}}/tire-protection/registrations?invoiceNumber=${invoice}\n?? body $.results length == 0`);
    assert.equal(check[0]?.outcome, 'passed', 'the good request of the bad file was not sent');
  });

  it('tpp run: exit 3 when a request gets no answer; --var gives variables; --bail stops the run', async () => {
    const down = flowFile('down.http', 'GET http://127.0.0.1:1/nothing\n?? status == 200\n');
    const r = await cli('run', down, ...flags(), '--reporter', 'json');
    assert.equal(r.code, 3);
    const report = JSON.parse(r.stdout) as { results: { outcome: string; message: string }[] };
    assert.equal(report.results[0]?.outcome, 'errored');
    assert.match(report.results[0]?.message ?? '', /ECONNREFUSED/);
    const withVar = flowFile('var.http', 'GET {{baseUrl}}/verify-token\n?? body $.partner_id == {{who}}\n');
    assert.equal((await cli('run', withVar, ...flags(), '--var', `who=${PARTNER}`)).code, 0);
    const bail = await cli('run', join(FLOWS, 'fails-on-purpose.http'), join(FLOWS, 'first-steps.http'), ...flags(), '--bail', '--reporter', 'json');
    assert.equal(bail.code, 1);
    const outcomes = (JSON.parse(bail.stdout) as { results: { file: string; outcome: string }[] }).results.filter((x) => x.file.endsWith('first-steps.http')).map((x) => x.outcome);
    assert.deepEqual(outcomes, Array(6).fill('skipped'));
  });

  it('a reference to a request not run yet, or to a path its answer lacks, errors that request with file, line and column', async () => {
    const early = await run('@id = {{reg.response.body.$.id}}\n###\nGET {{baseUrl}}/tire-protection/registrations/{{id}}\n###\n# @name reg\nGET {{baseUrl}}/verify-token\n');
    assert.equal(early[0]?.outcome, 'errored');
    assert.match(early[0]?.message ?? '', /^Not sent: inline\.http:3:47: \{\{id\}\}: request reg has not run in this run/);
    assert.equal(early[1]?.outcome, 'skipped');
    const path = await run('# @name who\nGET {{baseUrl}}/verify-token\n###\nGET {{baseUrl}}/x/{{who.response.body.$.nope}}\n');
    assert.equal(path[0]?.outcome, 'passed');
    assert.equal(path[1]?.outcome, 'errored');
    assert.match(path[1]?.message ?? '', /inline\.http:4:19: \{\{who\.response\.body\.\$\.nope\}\}: the answer of who \(status 200\) has nothing at \$\.nope/);
  });

  it('a variable cycle that reaches the runner ends with a message, not a hang', async () => {
    const parsed = parseFlow('GET {{baseUrl}}/x/{{a}}', 'cycle.http');
    const file: FlowFile = { ...parsed, variables: [{ name: 'a', value: '{{b}}', line: 1, column: 1 }, { name: 'b', value: 'x{{a}}', line: 2, column: 1 }] };
    const [r] = await runFlows([file], { environment, readFile: () => Promise.reject(new Error('none')) });
    assert.equal(r?.outcome, 'errored');
    assert.match(r?.message ?? '', /circle, or more than 8 deep/);
  });

  it('sends its own Authorization header as written (masked in the exchange), <@ payload files without their $ lines', async () => {
    const own = await run('GET {{baseUrl}}/verify-token\nAuthorization: Bearer not-a-token-secret\n\n?? status == 401\n?? contract');
    assert.equal(own[0]?.outcome, 'passed', own[0]?.message);
    assert.equal(own[0]?.exchange?.request.headers?.authorization, 'Bearer [masked]');
    assert.doesNotMatch(JSON.stringify(own[0]?.exchange), /not-a-token-secret/);
    writeFileSync(join(dir, 'reg.json'), readFileSync(join(FLOWS, '../tire-protection-registration.json')));
    const file = await run('POST {{baseUrl}}/tire-protection/registrations\nContent-Type: application/json\n\n<@ reg.json\n\n?? status == 201\n?? contract');
    assert.equal(file[0]?.outcome, 'passed', file[0]?.message);
    assert.doesNotMatch(file[0]?.exchange?.request.body ?? '', /\$schema|\{\{/);
  });
});
