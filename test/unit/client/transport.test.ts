import assert from 'node:assert/strict';
import { Agent } from 'undici';
import { send, type TransportOptions, type TransportEvent, type RepeatPolicy } from '../../../src/core/client/transport';
import { CancelledError, NetworkError, PolicyError } from '../../../src/core/client/errors';
import type { ServerResponse } from 'node:http';
import { startServer, json, drop, closedPort, type TestServer } from './helpers/server';
import { manualClock } from './helpers/clock';

const SAFE: RepeatPolicy = { kind: 'safe' };
const UNSAFE: RepeatPolicy = { kind: 'unsafe' };

describe('client transport (spec: Errors, Authentication)', () => {
  let server: TestServer;
  let agent: Agent;
  let events: TransportEvent[];
  let tokenCalls: number;
  const token = () => `tok-${++tokenCalls}`;
  const opts = (extra: Partial<TransportOptions> = {}): TransportOptions => ({
    dispatcher: agent,
    timeoutMs: 2000,
    retry: { maxAttempts: 5, maxTotalMs: 10_000, baseDelayMs: 5, maxDelayMs: 20 },
    onEvent: (e) => events.push(e),
    ...extra,
  });

  beforeEach(async () => {
    server = await startServer();
    agent = new Agent({ keepAliveTimeout: 1000 });
    events = [];
    tokenCalls = 0;
  });
  afterEach(async () => {
    await agent.close();
    await server.close();
  });

  it('sends JSON with a fresh bearer token and returns the answer', async () => {
    server.handler = (_r, res) => json(res, 201, { id: 'abc' });
    const r = await send(opts(), { method: 'POST', url: `${server.origin}/x`, body: { a: 1 }, token, repeat: UNSAFE });
    assert.equal(r.status, 201);
    assert.equal(r.rawBody, '{"id":"abc"}');
    assert.equal(r.attempts, 1);
    const sent = server.requests[0]!;
    assert.equal(sent.headers.authorization, 'Bearer tok-1');
    assert.equal(sent.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(sent.body), { a: 1 });
  });

  it('retries 429 and 500/502/503/504 with a new JWT on every attempt', async () => {
    const statuses = [429, 500, 502, 503, 504];
    server.handler = (_r, res, i) => json(res, statuses[i] ?? 200, { i });
    const r = await send(opts({ retry: { maxAttempts: 6, baseDelayMs: 1, maxDelayMs: 2 } }), {
      method: 'GET',
      url: `${server.origin}/x`,
      token,
      repeat: SAFE,
    });
    assert.equal(r.status, 200);
    assert.equal(r.attempts, 6);
    assert.deepEqual(
      server.requests.map((q) => q.headers.authorization),
      ['Bearer tok-1', 'Bearer tok-2', 'Bearer tok-3', 'Bearer tok-4', 'Bearer tok-5', 'Bearer tok-6'],
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'retry').map((e) => (e.type === 'retry' ? e.reason : '')),
      statuses.map((s) => `status ${s}`),
    );
  });

  it('does not retry other errors (400, 401, 403, 404, 405, 409)', async () => {
    for (const status of [400, 401, 403, 404, 405, 409]) {
      server.requests.length = 0;
      server.handler = (_r, res) => json(res, status, { error: 'x' });
      const r = await send(opts(), { method: 'GET', url: `${server.origin}/x`, token, repeat: SAFE });
      assert.equal(r.status, status);
      assert.equal(r.attempts, 1);
      assert.equal(server.requests.length, 1, `status ${status} was repeated`);
    }
  });

  it('stops after maxAttempts and reports the last answer as exhausted', async () => {
    server.handler = (_r, res) => json(res, 503, { error: 'busy' });
    const r = await send(opts({ retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 } }), {
      method: 'GET',
      url: `${server.origin}/x`,
      token,
      repeat: SAFE,
    });
    assert.equal(r.status, 503);
    assert.equal(r.attempts, 3);
    assert.equal(r.retriesExhausted, true);
    assert.equal(server.requests.length, 3);
  });

  it('honours Retry-After (seconds) as the least delay', async () => {
    const seen: string[] = [];
    const clock = manualClock(seen);
    server.handler = (_r, res, i) => (seen.push(`request ${i}`), i === 0 ? json(res, 429, {}, { 'retry-after': '1' }) : json(res, 200, {}));
    const r = await send(opts({ clock }), { method: 'GET', url: `${server.origin}/x`, token, repeat: SAFE });
    assert.equal(r.status, 200);
    assert.deepEqual(seen, ['request 0', 'sleep 1000', 'request 1'], 'the retry came after the second the server asked for (backoff alone: at most 20 ms)');
    const retry = events.find((e) => e.type === 'retry');
    assert.ok(retry && retry.type === 'retry' && retry.delayMs === 1000);
  });

  it('gives up at once when Retry-After exceeds the total-time budget', async () => {
    server.handler = (_r, res) => json(res, 429, {}, { 'retry-after': '60' });
    const clock = manualClock();
    const r = await send(opts({ clock, retry: { maxTotalMs: 2000 } }), { method: 'GET', url: `${server.origin}/x`, token, repeat: SAFE });
    assert.equal(r.status, 429);
    assert.equal(r.retriesExhausted, true);
    assert.equal(r.attempts, 1);
    assert.deepEqual(clock.sleeps, [], 'no wait at all');
  });

  it('retries a GET after a dropped connection', async () => {
    server.handler = (_r, res, i) => (i === 0 ? drop(res) : json(res, 200, { ok: true }));
    const r = await send(opts(), { method: 'GET', url: `${server.origin}/x`, token, repeat: SAFE });
    assert.equal(r.status, 200);
    assert.equal(r.attempts, 2);
  });

  it('does not repeat an unsafe POST after a dropped connection and says the outcome is unknown', async () => {
    server.handler = (_r, res) => drop(res);
    await assert.rejects(
      send(opts(), { method: 'POST', url: `${server.origin}/claims`, body: {}, token, repeat: UNSAFE }),
      (err: unknown) => {
        assert.ok(err instanceof NetworkError);
        assert.equal(err.outcomeUnknown, true);
        assert.equal(err.attempts, 1);
        assert.match(err.message, /may have reached the server/);
        return true;
      },
    );
    assert.equal(server.requests.length, 1);
  });

  it('repeats any method when the connection was refused (nothing was sent)', async () => {
    const port = await closedPort();
    await assert.rejects(
      send(opts({ retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 } }), {
        method: 'POST',
        url: `http://127.0.0.1:${port}/claims`,
        body: {},
        token,
        repeat: UNSAFE,
      }),
      (err: unknown) => {
        assert.ok(err instanceof NetworkError);
        assert.equal(err.code, 'ECONNREFUSED');
        assert.equal(err.attempts, 3);
        assert.equal(err.outcomeUnknown, false);
        return true;
      },
    );
  });

  it('times out a slow attempt and retries a GET', async () => {
    server.handler = (_r, res, i) => {
      if (i === 0) setTimeout(() => json(res, 200, { late: true }), 600);
      else json(res, 200, { late: false });
    };
    const r = await send(opts({ timeoutMs: 150 }), { method: 'GET', url: `${server.origin}/x`, token, repeat: SAFE });
    assert.deepEqual(JSON.parse(r.rawBody), { late: false });
    assert.equal(r.attempts, 2);
    assert.ok(events.some((e) => e.type === 'retry' && e.reason === 'timeout'));
  });

  it('reports a timeout as a NetworkError with timedOut', async () => {
    server.handler = (_r, res) => setTimeout(() => json(res, 200, {}), 500);
    await assert.rejects(
      send(opts({ timeoutMs: 100, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } }), {
        method: 'GET',
        url: `${server.origin}/x`,
        token,
        repeat: SAFE,
      }),
      (err: unknown) => err instanceof NetworkError && err.timedOut && err.attempts === 2 && !err.outcomeUnknown,
    );
  });

  describe('invoice check before repeating a create', () => {
    const stored = new Map<string, string>();
    const check: RepeatPolicy = {
      kind: 'check',
      resendAfterLostConnection: true, // a registration: the server refuses a duplicate invoice number itself
      check: async () => {
        const id = stored.get('INV-1');
        return id ? { landed: true, body: { id }, checkUrl: 'list', record: { _id: id, invoiceNumber: 'INV-1' } } : { landed: false };
      },
    };
    beforeEach(() => stored.clear());

    it('returns the landed record instead of sending the create again', async () => {
      server.handler = (_r, res) => {
        stored.set('INV-1', 'rec-1');
        drop(res); // the write landed, the answer is lost
      };
      const r = await send(opts(), { method: 'POST', url: `${server.origin}/regs`, body: {}, token, repeat: check });
      assert.equal(server.requests.length, 1);
      assert.deepEqual(r.recovered?.body, { id: 'rec-1' });
      assert.deepEqual(JSON.parse(r.rawBody), { id: 'rec-1' });
      assert.ok(events.some((e) => e.type === 'check' && e.landed === true));
    });

    it('sends the create again when the check finds nothing', async () => {
      server.handler = (_r, res, i) => {
        if (i === 0) return drop(res); // lost before the write
        stored.set('INV-1', 'rec-2');
        json(res, 201, { id: 'rec-2' });
      };
      const r = await send(opts(), { method: 'POST', url: `${server.origin}/regs`, body: {}, token, repeat: check });
      assert.equal(server.requests.length, 2);
      assert.equal(r.status, 201);
      assert.equal(r.recovered, undefined);
    });

    it('does not resend a claim-like create after a dropped connection when the check finds nothing (it may still be queued)', async () => {
      server.handler = (_r, res) => drop(res);
      const claimLike: RepeatPolicy = { ...check, resendAfterLostConnection: false, howToCheck: 'Read the registration.' };
      const err = await send(opts(), { method: 'POST', url: `${server.origin}/claims`, body: {}, token, repeat: claimLike }).then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof NetworkError && err.outcomeUnknown, String(err));
      assert.match(err.message, /Read the registration\./);
      assert.equal(server.requests.length, 1);
    });

    it('checks after a 5xx too (a gateway may answer 502 after the write landed)', async () => {
      server.handler = (_r, res) => {
        stored.set('INV-1', 'rec-3');
        json(res, 502, {});
      };
      const r = await send(opts(), { method: 'POST', url: `${server.origin}/regs`, body: {}, token, repeat: check });
      assert.equal(server.requests.length, 1);
      assert.deepEqual(r.recovered?.body, { id: 'rec-3' });
    });

    it('does not check after 429 (nothing was processed) and just retries', async () => {
      let checks = 0;
      const counting: RepeatPolicy = { kind: 'check', check: async () => (checks++, { landed: false }) };
      server.handler = (_r, res, i) => (i === 0 ? json(res, 429, {}) : json(res, 201, { id: 'x' }));
      const r = await send(opts(), { method: 'POST', url: `${server.origin}/regs`, body: {}, token, repeat: counting });
      assert.equal(r.status, 201);
      assert.equal(checks, 0);
    });

    it('reports an unknown outcome when the check itself fails', async () => {
      const failing: RepeatPolicy = { kind: 'check', check: async () => Promise.reject(new Error('list unavailable')) };
      server.handler = (_r, res) => drop(res);
      await assert.rejects(
        send(opts(), { method: 'POST', url: `${server.origin}/regs`, body: {}, token, repeat: failing }),
        (err: unknown) => err instanceof NetworkError && err.outcomeUnknown && /list unavailable/.test(err.message),
      );
      assert.equal(server.requests.length, 1);
    });

    it('still checks when the budget is exhausted, to settle the outcome', async () => {
      server.handler = (_r, res) => {
        stored.set('INV-1', 'rec-4');
        drop(res);
      };
      const r = await send(opts({ retry: { maxAttempts: 1 } }), { method: 'POST', url: `${server.origin}/regs`, body: {}, token, repeat: check });
      assert.deepEqual(r.recovered?.body, { id: 'rec-4' });
    });
  });

  describe('cancellation', () => {
    it('rejects at once with an AbortError during backoff', async () => {
      server.handler = (_r, res) => json(res, 429, {}, { 'retry-after': '5' });
      const ac = new AbortController();
      // Aborted once the real 5 s wait has begun; "at once" is told by order: before the event loop's next turn.
      let turnPassed = false;
      const onEvent = (e: TransportEvent) => {
        if (e.type !== 'retry') return;
        queueMicrotask(() => {
          ac.abort();
          setImmediate(() => (turnPassed = true));
        });
      };
      await assert.rejects(
        send(opts({ onEvent }), { method: 'GET', url: `${server.origin}/x`, token, repeat: SAFE, signal: ac.signal }),
        (err: unknown) => err instanceof CancelledError && err.name === 'AbortError' && err.attempts === 1 && !turnPassed,
      );
      assert.equal(server.requests.length, 1);
    });

    it('rejects at once with an AbortError while waiting for an answer', async () => {
      const held: ServerResponse[] = [];
      const ac = new AbortController();
      // The server holds the answer and the attempt timer is a minute: only the abort can end the call.
      server.handler = (_r, res) => (held.push(res), ac.abort());
      await assert.rejects(
        send(opts({ timeoutMs: 60_000 }), { method: 'GET', url: `${server.origin}/x`, token, repeat: SAFE, signal: ac.signal }),
        (err: unknown) => err instanceof CancelledError && err.name === 'AbortError' && err.attempts === 1,
      );
      assert.equal(held.length, 1);
    });

    it('sends nothing when already aborted', async () => {
      const ac = new AbortController();
      ac.abort();
      await assert.rejects(send(opts(), { method: 'GET', url: `${server.origin}/x`, token, repeat: SAFE, signal: ac.signal }), { name: 'AbortError' });
      assert.equal(server.requests.length, 0);
      assert.equal(tokenCalls, 0);
    });
  });

  describe('redirects and origins', () => {
    let other: TestServer;
    beforeEach(async () => {
      other = await startServer((_r, res) => json(res, 200, { other: true }));
    });
    afterEach(() => other.close());

    it('follows 301 and 302 on the same origin, keeping method and body, with a fresh token per hop', async () => {
      server.handler = (r, res) => {
        if (r.url === '/a') return json(res, 301, undefined, { location: '/b' });
        if (r.url === '/b') return json(res, 302, undefined, { location: `${server.origin}/c?x=1` });
        json(res, 201, { at: r.url, method: r.method, body: r.body });
      };
      const r = await send(opts(), { method: 'POST', url: `${server.origin}/a`, body: { k: 'v' }, token, repeat: UNSAFE });
      assert.equal(r.status, 201);
      assert.equal(r.url, `${server.origin}/c?x=1`);
      assert.equal(r.attempts, 1);
      assert.deepEqual(JSON.parse(r.rawBody), { at: '/c?x=1', method: 'POST', body: '{"k":"v"}' });
      assert.deepEqual(
        server.requests.map((q) => q.headers.authorization),
        ['Bearer tok-1', 'Bearer tok-2', 'Bearer tok-3'],
      );
    });

    it('refuses a redirect to another origin and never sends it the Authorization header', async () => {
      server.handler = (_r, res) => json(res, 302, undefined, { location: `${other.origin}/steal` });
      await assert.rejects(
        send(opts(), { method: 'GET', url: `${server.origin}/a`, token, repeat: SAFE }),
        (err: unknown) =>
          err instanceof PolicyError && err.reason === 'cross-origin-redirect' && err.status === 302 && err.location === `${other.origin}/steal`,
      );
      assert.equal(other.requests.length, 0);
      assert.equal(server.requests.length, 1, 'a policy refusal is not retried');
    });

    it('treats another port or scheme on the same host as another origin', async () => {
      const port = Number(new URL(server.origin).port);
      for (const location of [`http://127.0.0.1:${port + 1}/x`, `https://127.0.0.1:${port}/x`, `http://localhost:${port}/x`]) {
        server.handler = (_r, res) => json(res, 301, undefined, { location });
        await assert.rejects(send(opts(), { method: 'GET', url: `${server.origin}/a`, token, repeat: SAFE }), { reason: 'cross-origin-redirect' });
      }
    });

    it('stops a redirect loop', async () => {
      server.handler = (_r, res) => json(res, 302, undefined, { location: '/loop' });
      await assert.rejects(send(opts({ maxRedirects: 3 }), { method: 'GET', url: `${server.origin}/loop`, token, repeat: SAFE }), {
        reason: 'too-many-redirects',
      });
      assert.equal(server.requests.length, 4);
    });

    it('refuses plain http to a non-loopback host before sending anything', async () => {
      for (const url of ['http://example.com/api/v3/verify-token', 'http://10.0.0.1/x', 'ftp://127.0.0.1/x', 'https://user:pw@example.com/x', 'not a url']) {
        await assert.rejects(send(opts(), { method: 'GET', url, token, repeat: SAFE }), (err: unknown) => err instanceof PolicyError && err.reason === 'insecure-url', url);
      }
      assert.equal(tokenCalls, 0);
    });
  });

  it('never puts the token in an error', async () => {
    const secret = 'eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJwIn0.c2lnbmF0dXJl';
    server.handler = (_r, res) => drop(res);
    await assert.rejects(
      send(opts(), { method: 'POST', url: `${server.origin}/x?token=${secret}`, body: {}, token: () => secret, repeat: UNSAFE }),
      (err: unknown) => {
        assert.ok(err instanceof NetworkError);
        assert.ok(!err.message.includes(secret) && !err.url.includes(secret), err.message);
        assert.ok(!JSON.stringify(err).includes(secret));
        return true;
      },
    );
  });
});
