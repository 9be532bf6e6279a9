import { strict as assert } from 'node:assert';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { maskExchange } from '../../../src/core/requestLog/requestLogFile';
import { timeLimits } from '../../../src/core/sandbox/control/security';
import type { Exchange } from '../../../src/core/exchange/types';
import { Client, startWith, tpRegistration } from './helpers';

/** A request with the headers a browser (or an attacker's page) would send; fetch may not set Host itself. */
function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const count = async (c: Client) => (await c.call('GET', '/tire-protection/registrations')).json.totalRecordCount as number;

/** What the sandbox keeps of credentials, and who may drive it (docs/sandbox.md, docs/testing-your-application.md: Security). */
describe('Local sandbox: secrets and who may call it', function () {
  this.timeout(60_000);

  it('keeps no part of a token sent without the Bearer scheme: the journal shows the header masked whole', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const token = c.token();
    const r = await raw(`${sb.v3BaseUrl}/verify-token`, 'GET', { authorization: token });
    assert.equal(r.status, 401);
    const journal = await raw(`${sb.origin}/__tpp/requests`, 'GET', {});
    const [, payload, signature] = token.split('.') as [string, string, string];
    assert.ok(!journal.text.includes(payload) && !journal.text.includes(signature), 'no part of the token is kept');
    const entry = JSON.parse(journal.text).entries.at(-1) as Exchange;
    assert.equal(entry.request.headers?.authorization, '[masked]');
    assert.match(JSON.stringify(entry.diagnosis), /the token itself, without a scheme/);
    await sb.close();
  });

  it('masks again, on the way to disk, an Authorization value that only ends in "[masked]"', () => {
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiI0MiJ9.c2lnbmF0dXJlc2lnbmF0dXJl';
    const x: Exchange = { id: '1', env: 'local', source: 'sandbox-log', time: new Date(0).toISOString(), request: { method: 'GET', url: 'http://127.0.0.1/x', headers: { authorization: `${jwt} [masked]`, 'x-api-key': 'k-1' } }, durationMs: 1, attempts: 1 };
    const masked = maskExchange(x);
    assert.equal(masked.request.headers?.authorization, '[masked]');
    assert.equal(masked.request.headers?.['x-api-key'], '[masked]');
  });

  it('answers 421 to a request whose Host is not its loopback address (DNS rebinding), before anything is done', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('R-1'))).status, 201);
    const port = new URL(sb.origin).port;
    const evil = { host: `attacker.example:${port}`, origin: 'https://evil.example', 'content-type': 'application/json' };
    const reset = await raw(`${sb.origin}/__tpp/reset?keepPartners=false`, 'POST', evil, '{}');
    assert.equal(reset.status, 421);
    assert.match(reset.text, /loopback name/);
    assert.equal((await raw(`${sb.v3BaseUrl}/tire-protection/registrations`, 'GET', { host: `attacker.example:${port}`, authorization: `Bearer ${c.token()}` })).status, 421, 'partner reads too');
    assert.equal((await raw(`${sb.origin}/__tpp/health`, 'GET', { host: `127.0.0.1:${Number(port) + 1}` })).status, 421, 'another port is another origin');
    assert.equal((await raw(`${sb.origin}/__tpp/health`, 'GET', { host: `localhost:${port}` })).status, 200, 'localhost is this machine');
    assert.equal(await count(c), 1, 'nothing was reset');
    await sb.close();
  });

  it('refuses control calls a web page could make: cross-site Origin or Sec-Fetch-Site (403), a POST that is not JSON (415)', async () => {
    const { sb, clients } = await startWith();
    const c = clients[0] as Client;
    const port = new URL(sb.origin).port;
    assert.equal((await c.call('POST', '/tire-protection/registrations', tpRegistration('R-1'))).status, 201);
    const json = { 'content-type': 'application/json' };
    assert.equal((await raw(`${sb.origin}/__tpp/reset`, 'POST', { ...json, origin: 'https://evil.example' }, '{}')).status, 403);
    assert.equal((await raw(`${sb.origin}/__tpp/reset`, 'POST', { ...json, origin: 'null' }, '{}')).status, 403);
    assert.equal((await raw(`${sb.origin}/__tpp/reset`, 'POST', { ...json, 'sec-fetch-site': 'cross-site' }, '{}')).status, 403);
    assert.equal((await raw(`${sb.origin}/__tpp/requests`, 'GET', { 'sec-fetch-site': 'same-site' })).status, 403, 'reads of the journal too');
    // A page's "simple" request (no preflight): no Content-Type, or text/plain.
    assert.equal((await raw(`${sb.origin}/__tpp/reset`, 'POST', {})).status, 415);
    assert.equal((await raw(`${sb.origin}/__tpp/reset`, 'POST', { 'content-type': 'text/plain' }, '{}')).status, 415);
    const preflight = await raw(`${sb.origin}/__tpp/reset`, 'OPTIONS', { origin: 'https://evil.example', 'access-control-request-method': 'POST' });
    assert.notEqual(preflight.status, 204);
    assert.equal(await count(c), 1, 'nothing was reset');
    // What a test suite sends: JSON, with or without a body, and its own origin if any.
    assert.equal((await raw(`${sb.origin}/__tpp/reset`, 'POST', json)).status, 200, 'an empty JSON body is no body');
    assert.equal((await raw(`${sb.origin}/__tpp/reset`, 'POST', { ...json, origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' }, '{}')).status, 200);
    assert.equal((await raw(`${sb.origin}/__tpp/reset`, 'POST', json, '{"keepPartners":')).status, 400, 'broken JSON is still a 400');
    await sb.close();
  });

  it('closes a request whose body trickles in past the request time limit', async () => {
    const { sb } = await startWith({ requestTimeoutMs: 500 });
    const url = new URL(sb.origin);
    const socket = connect(Number(url.port), url.hostname);
    const ended = new Promise<string>((resolve) => {
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => (text += d));
      socket.on('close', () => resolve(text));
    });
    socket.write(`POST /__tpp/partners HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"id":`);
    const drip = setInterval(() => socket.write(' '), 100);
    const text = await ended;
    clearInterval(drip);
    assert.match(text, /^HTTP\/1.1 408/, 'closed by the request time limit while the body still trickled (all of it: 100 s)');
    // Node enforces it on its own interval (30 s by default) and only under an equal headers limit (60 s by default):
    // both follow the limit, so the 408 comes when the limit says.
    assert.deepEqual(timeLimits(500).http, { connectionsCheckingInterval: 500, headersTimeout: 500 });
    await sb.close();
  });
});
