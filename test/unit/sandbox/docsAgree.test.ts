import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/cli';
import { diagnose, type DiagnosisInput } from '../../../src/core/requestLog/requestLogDiagnosis';
import { CONTROL_ENDPOINTS } from '../../../src/core/sandbox/control/limits';
import { controlOpenApiDocument } from '../../../src/core/sandbox/control/openapi';
import { Client, request, startWith, tpRegistration } from './helpers';

/** What the docs say about the sandbox's answers and its journal is what the sandbox does (docs/contract.md; docs/testing-your-application.md). */
describe('Local sandbox: the docs agree with its answers', function () {
  this.timeout(60_000);
  const doc = (name: string) => readFileSync(join(__dirname, '..', '..', '..', 'docs', name), 'utf8').replace(/\s+/g, ' ');

  it('a text/plain body: 415 in the sandbox and in every doc that names it', async () => {
    const { sb, clients } = await startWith();
    const r = await (clients[0] as Client).call('POST', '/tire-protection/registrations', undefined, { rawBody: JSON.stringify(tpRegistration('TXT')), contentType: 'text/plain' });
    assert.equal(r.status, 415);
    await sb.close();
    for (const name of ['contract.md', 'sandbox.md']) {
      for (const m of doc(name).matchAll(/[^.]*`text\/plain`[^.]*\./g)) assert.doesNotMatch(m[0], /\b400\b/, `${name}: ${m[0]}`);
    }
    assert.match(doc('contract.md'), /`text\/plain` body [^.]*415/);
  });

  it("the journal's bodies are JSON text, as the reference says", async () => {
    const { sb, clients } = await startWith();
    await (clients[0] as Client).call('POST', '/tire-protection/registrations', tpRegistration('J-1'));
    const [e] = (await request('GET', `${sb.origin}/__tpp/requests`, {})).json.entries;
    assert.equal(typeof e.request.body, 'string');
    assert.equal(JSON.parse(e.request.body).invoiceNumber, 'J-1');
    assert.equal(typeof JSON.parse(e.response.body).id, 'string');
    assert.match(doc('testing-your-application.md'), /`body` is the text as sent or answered, a string, never an object: a JSON body is JSON text/);
    await sb.close();
  });
});

/** What the docs name of the control API and the journal is all there is (docs/sandbox.md; docs/testing-your-application.md). */
describe('Local sandbox: the docs and help name everything it has', function () {
  this.timeout(60_000);
  const doc = (name: string) => readFileSync(join(__dirname, '..', '..', '..', 'docs', name), 'utf8').replace(/\s+/g, ' ');

  it('every diagnosis rule the journal can carry, but a field path, is named in docs/sandbox.md', async () => {
    const answer = (status: number, message: string) => JSON.stringify({ error: 'x', statusCode: status, message });
    const base = { method: 'POST', nowSeconds: Math.floor(Date.now() / 1000), keyOf: () => undefined, partnerIds: () => [] };
    const inputs: DiagnosisInput[] = [
      { ...base, status: 401 },
      { ...base, status: 401, authorization: 'Basic abc' },
      { ...base, status: 401, authorization: 'Bearer not-a-jwt' },
      { ...base, status: 400, body: '{not json', responseBody: answer(400, "Body is not valid JSON but content-type is set to 'application/json'") },
      { ...base, status: 403, responseBody: answer(403, 'company_name is not yours') },
      { ...base, status: 404, responseBody: answer(404, 'No endpoint') },
      { ...base, status: 405, responseBody: answer(405, 'GET is not allowed here') },
      { ...base, status: 409, responseBody: answer(409, 'Already cancelled') },
      { ...base, status: 413, responseBody: answer(413, 'Request body is too large') },
      { ...base, status: 415, responseBody: answer(415, 'Unsupported Media Type') },
      { ...base, status: 421, responseBody: answer(421, 'This sandbox answers only requests addressed to it by a loopback name') },
      { ...base, status: 429, responseBody: answer(429, 'Rate limit') },
      { ...base, status: 500, responseBody: answer(500, 'Internal error') },
      { ...base, status: 503, responseBody: answer(503, 'storage failure') },
      { ...base, status: 503, responseBody: answer(503, 'The Local sandbox is starting (loading its sample data)') },
      { ...base, status: 503, fault: { by: 'schedule', id: 1, fault: 503, when: 'before' } },
    ];
    const rules = new Set<string>();
    for (const input of inputs) for (const d of await diagnose(input)) rules.add(d.rule);
    const text = doc('sandbox.md');
    const missing = [...rules].filter((r) => !text.includes(`\`${r}\``));
    assert.deepEqual(missing, [], `rules the journal carries and docs/sandbox.md does not name: ${missing.join(', ')}`);
    assert.ok(rules.size >= 10, [...rules].join(', '));
  });

  it('tpp sandbox --help and the control API description list every control call; the docs list snapshots and records', async () => {
    const names = [...new Set(CONTROL_ENDPOINTS.map(([, p]) => p.split('/')[0] as string))];
    let help = '';
    await runCli(['sandbox', '--help'], { stdout: { write: (s: string) => (help += s) }, stderr: { write: () => undefined } });
    const description = String((controlOpenApiDocument('0.0.0').info as { description: string }).description);
    for (const n of names) {
      assert.match(help.replace(/\s+/g, ' '), new RegExp(`/__tpp/: [^)]*\\b${n}\\b`), `tpp sandbox --help names ${n}`);
      assert.match(description, new RegExp(`\\b${n}\\b`), `the OpenAPI description names ${n}`);
    }
    assert.match(doc('sandbox.md'), /`POST`\/`GET snapshots`, `POST snapshots\/\{name\}\/restore`, `DELETE snapshots\/\{name\}`/);
    assert.match(doc('sandbox.md'), /`GET records`/);
  });

  it("the testing doc gives a fault's path as required and the seed's $schema form", () => {
    const text = doc('testing-your-application.md');
    assert.match(text, /`path` required[^|]*a fault without one is a 400 naming `path`/);
    assert.match(text, /"\$schema": "tpp:\/\/schemas\/<kind>\.json"/);
  });
});
