/**
 * Redirects and cookies of a flow under the host rule (docs/flows.md, What a flow may do; How requests are sent): a
 * redirect is followed as REST Client and httpyac follow it, but the token the toolkit minted never leaves the origin
 * it was made for, a hop to another host is judged like a request (what it still carries, and the redirecting answer
 * when the environment gave it), and a cookie the environment set goes to no other host unless the user allowed it. A
 * contract call carries the file's headers and the jar's cookies too.
 */
import * as assert from 'node:assert/strict';
import { parseFlow } from '../../../src/core/flows/parse';
import { runFlow, runFlows } from '../../../src/core/flows/run';
import type { FlowEnvironment, HostPolicy } from '../../../src/core/flows/types';
import { startEcho, type Echo, type Received } from './compat/echo';

const TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJQIn0.c2lnbmF0dXJl';
const header = (r: Received | undefined, name: string) => r?.headers.find(([n]) => n.toLowerCase() === name)?.[1];

describe('flows: redirects and cookies under the host rule', () => {
  let env: Echo;
  let other: Echo;
  let environment: FlowEnvironment;
  const otherHost = () => new URL(other.origin).host;
  const run = (text: string, hosts?: HostPolicy) => runFlow(parseFlow(text, 'r.http'), { environment, readFile: () => Promise.reject(new Error('no files')), ...(hosts ? { hosts } : {}) });

  before(async () => {
    env = await startEcho();
    other = await startEcho();
    environment = { id: 'local', baseUrl: `${env.origin}/api/v3`, partnerId: 'P-1', token: () => TOKEN };
  });
  after(async () => {
    await env.close();
    await other.close();
  });
  beforeEach(() => {
    env.received.length = 0;
    other.received.length = 0;
  });

  it("the environment's redirect to another host is not followed unless that host is allowed; the minted token never goes there", async () => {
    const flow = `GET {{baseUrl}}/redirect/302?to=${encodeURIComponent(`${other.origin}/landed`)}\n`;
    const refused = await run(flow);
    assert.equal(refused[0]?.outcome, 'errored');
    assert.match(refused[0]?.message ?? '', new RegExp(`redirecting to ${other.origin}/landed: not followed: it would send the answer of .* to ${otherHost()}.*--allow-host ${otherHost()}`));
    assert.equal(header(env.received[0], 'authorization'), `Bearer ${TOKEN}`, 'the environment got its token');
    assert.equal(other.received.length, 0);

    const allowed = await run(flow, { allowed: [otherHost()] });
    assert.equal(allowed[0]?.outcome, 'passed', allowed[0]?.message);
    assert.equal(other.received.length, 1);
    assert.equal(header(other.received[0], 'authorization'), undefined, 'no token on the hop to another origin');
  });

  it('a redirect between hosts outside the environment carrying nothing of yours is followed; a written Authorization is not sent to another site', async () => {
    const r = await run(`GET ${env.origin.replace('127.0.0.1', 'localhost')}/redirect/307?to=${encodeURIComponent(`${other.origin}/next`)}\nAuthorization: Bearer written-by-the-file\n`);
    assert.equal(r[0]?.outcome, 'passed', r[0]?.message);
    assert.equal(header(env.received[0], 'authorization'), 'Bearer written-by-the-file');
    assert.equal(other.received[0]?.target, '/next');
    assert.equal(header(other.received[0], 'authorization'), undefined, 'got drops Authorization on another site, and so does tpp');
  });

  it('a hop keeps carrying the body of your side: a 307 with a --var body is refused at another host, a 303 (GET, no body) is not', async () => {
    const to = encodeURIComponent(`${other.origin}/landed`);
    const kept = await runFlow(parseFlow(`POST http://localhost:${new URL(env.origin).port}/redirect/307?to=${to}\nContent-Type: text/plain\n\n{{secret}}\n`, 'r.http'), { environment, variables: { secret: 's-1' }, hosts: { allowed: ['localhost'] }, readFile: () => Promise.reject(new Error('no files')) });
    assert.equal(kept[0]?.outcome, 'errored');
    assert.match(kept[0]?.message ?? '', /not followed: it would send the variable \{\{secret\}\} given from outside the file/);
    assert.equal(other.received.length, 0);
    const dropped = await runFlow(parseFlow(`POST http://localhost:${new URL(env.origin).port}/redirect/303?to=${to}\nContent-Type: text/plain\n\n{{secret}}\n`, 'r.http'), { environment, variables: { secret: 's-1' }, hosts: { allowed: ['localhost'] }, readFile: () => Promise.reject(new Error('no files')) });
    assert.equal(dropped[0]?.outcome, 'passed', dropped[0]?.message);
    assert.deepEqual([other.received[0]?.method, other.received[0]?.body.length], ['GET', 0]);
  });

  it("a cookie the environment set goes to another host only when it is allowed; # @no-cookie-jar sends none", async () => {
    const flow = `POST {{baseUrl}}/login\n\n###\nGET ${other.origin}/api/profile\n\n###\n# @no-cookie-jar\nGET ${other.origin}/api/plain\n`;
    const refused = await run(flow);
    assert.deepEqual(refused.map((r) => r.outcome), ['passed', 'errored', 'skipped']);
    assert.match(refused[1]?.message ?? '', new RegExp(`it would send the cookie session \\(set by an answer of the environment\\), the cookie theme .* to ${otherHost()}`));
    assert.equal(other.received.length, 0);

    const allowed = await run(flow, { allowed: [otherHost()] });
    assert.deepEqual(allowed.map((r) => r.outcome), ['passed', 'passed', 'passed'], allowed.map((r) => r.message).join('\n'));
    assert.equal(header(other.received[0], 'cookie'), 'session=s-1; theme=dark');
    assert.equal(header(other.received[1], 'cookie'), undefined);
  });

  it("a contract call carries the headers the file writes and the jar's cookies, with its fresh token", async () => {
    const r = await run('POST {{baseUrl}}/login\n\n###\nGET {{baseUrl}}/verify-token\nX-Correlation-Id: c-1\nAccept: application/json; charset=utf-8\n');
    assert.equal(r[1]?.exchange?.endpoint?.id, 'verifyToken', 'sent as the contract call');
    const call = env.received[1];
    assert.equal(call?.target, '/api/v3/verify-token');
    assert.deepEqual(['authorization', 'x-correlation-id', 'accept', 'cookie'].map((n) => header(call, n)), [`Bearer ${TOKEN}`, 'c-1', 'application/json; charset=utf-8', 'session=s-1; theme=dark']);
  });

  it('each file has its own cookie jar', async () => {
    const login = parseFlow('POST {{baseUrl}}/login\n', 'a.http');
    const read = parseFlow('GET {{baseUrl}}/me\n', 'b.http');
    const results = await runFlows([login, read], { environment, readFile: () => Promise.reject(new Error('no files')) });
    assert.deepEqual(results.map((r) => r.outcome), ['passed', 'passed']);
    assert.equal(header(env.received[1], 'cookie'), undefined, "b.http does not get a.http's cookies");
  });
});
