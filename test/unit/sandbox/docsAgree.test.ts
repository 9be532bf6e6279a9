import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
