/**
 * docs/sending.md (Writes that may have landed): a write that may have landed is never resent blindly (a 5xx to an unchecked write is final and
 * says the outcome is unknown), `maxTotalMs` is a hard ceiling of the whole call, and an answer over
 * `maxResponseBytes` is not read whole.
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { Agent } from 'undici';
import { send, type RepeatPolicy, type TransportOptions } from '../../../src/core/client/transport';
import { ApiError, NetworkError, ResponseTooLargeError } from '../../../src/core/client/errors';
import { createPartnerClient } from '../../../src/core/client';
import { startServer, json, type TestServer } from './helpers/server';
import { manualClock } from './helpers/clock';
import { eventually } from '../eventually';

const SAFE: RepeatPolicy = { kind: 'safe' };
const UNSAFE: RepeatPolicy = { kind: 'unsafe', howToCheck: 'Look it up by hand.' };

describe('client: duplicate safety, total deadline and response-size cap', function () {
  this.timeout(30_000);
  let server: TestServer;
  let agent: Agent;
  let n: number;
  const token = () => `tok-${++n}`;
  const opts = (extra: Partial<TransportOptions> = {}): TransportOptions => ({
    dispatcher: agent,
    timeoutMs: 5000,
    retry: { maxAttempts: 10, maxTotalMs: 10_000, baseDelayMs: 5, maxDelayMs: 20 },
    ...extra,
  });

  beforeEach(async () => {
    server = await startServer();
    agent = new Agent({ keepAliveTimeout: 1000 });
    n = 0;
  });
  afterEach(async () => {
    await agent.close();
    await server.close();
  });

  describe('writes that may have landed', () => {
    for (const status of [500, 502, 503, 504]) {
      it(`does not resend an unchecked write answered ${status}: outcome unknown, with how to check`, async () => {
        server.handler = (_r, res) => json(res, status, { error: 'x' });
        const r = await send(opts(), { method: 'POST', url: `${server.origin}/parts`, body: { a: 1 }, token, repeat: UNSAFE });
        assert.equal(r.status, status);
        assert.equal(server.requests.length, 1, 'sent again');
        assert.equal(r.outcomeUnknown, true);
        assert.equal(r.howToCheck, 'Look it up by hand.');
      });
    }

    it('still retries 429 for an unchecked write (nothing was processed), and 5xx for a GET', async () => {
      server.handler = (_r, res, i) => (i === 0 ? json(res, 429, {}) : json(res, 204, undefined));
      assert.equal((await send(opts(), { method: 'PATCH', url: `${server.origin}/r/1`, body: {}, token, repeat: UNSAFE })).status, 204);
      server.requests.length = 0;
      server.handler = (_r, res) => (server.requests.length === 1 ? json(res, 500, {}) : json(res, 200, {}));
      assert.equal((await send(opts(), { method: 'GET', url: `${server.origin}/r/1`, token, repeat: SAFE })).status, 200);
      assert.equal(server.requests.length, 2);
    });

    it('a transaction answered 500 through the client is an ApiError saying the outcome is unknown and how to check', async () => {
      server.handler = (_r, res) => json(res, 500, { error: 'internal_server_error', statusCode: 500 });
      const client = createPartnerClient({ baseUrls: { v3: `${server.origin}/api/v3` }, token, dispatcher: agent, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
      const body = { product_id: 'P', make: 'M', model: 'X', size: '1', treadDepth: 1, date: '2025-01-01', unitPrice: 1, quantity: 1, isTrailer: false, partNumber: 'p', dot: 'd' };
      const err = await client.call('createTransaction', {}, body).then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof ApiError);
      assert.equal(err.outcomeUnknown, true);
      assert.match(err.message, /Outcome unknown: the server may have stored it.*not sent again.*ask the administrator/);
      assert.equal(server.requests.length, 1);
    });
  });

  describe('maxTotalMs is a ceiling of the whole call', () => {
    // Time is the call's clock (a manual one): the server moves it while it holds an answer, the call's waits move it
    // by what they asked for. Only an attempt timer that fires is a real wait, never measured.

    it('cuts the attempt timeout to what is left (a server that never answers)', async () => {
      const clock = manualClock();
      server.handler = () => clock.advance(100); // holds the request past the deadline, never answers
      const outcome = await send(opts({ clock, timeoutMs: 10_000, retry: { maxTotalMs: 100 } }), { method: 'GET', url: `${server.origin}/x`, token, repeat: SAFE }).then(
        (v) => v,
        (e: unknown) => e,
      );
      assert.ok(outcome instanceof NetworkError && outcome.timedOut, String(outcome));
      assert.match(outcome.message, /no complete answer within 100 ms \(the call's total limit, maxTotalMs 100 ms, was reached\)/, 'the 10 s attempt timer was cut to the 100 ms left');
      assert.equal(server.requests.length, 1);
      assert.deepEqual(clock.sleeps, [], 'no wait once the deadline had passed');
    });

    it('never exceeds it over retries, slow answers and backoff', async () => {
      const TIMEOUT_MS = 120;
      for (const maxTotalMs of [150, 400, 700]) {
        const clock = manualClock();
        const starts: number[] = [];
        server.requests.length = 0;
        server.handler = (_r, res, i) => {
          starts.push(clock.now());
          // An answer takes 40, 100 or 160 ms; the client gives up at its attempt timer or at the deadline.
          const slow = 40 + (i % 3) * 60;
          const held = Math.min(slow, TIMEOUT_MS, maxTotalMs - clock.now());
          clock.advance(held);
          if (held === slow) json(res, 503, {}); // else never answered: the attempt timer ends it
        };
        const outcome = await send(opts({ clock, timeoutMs: TIMEOUT_MS, retry: { maxAttempts: 100, maxTotalMs, baseDelayMs: 30, maxDelayMs: 90 } }), { method: 'GET', url: `${server.origin}/x`, token, repeat: SAFE }).then(
          (v) => v,
          (e: unknown) => e,
        );
        assert.ok(outcome instanceof NetworkError || (outcome as { status?: number }).status === 503, String(outcome));
        assert.ok(starts.length > 1, `retried (${starts.length} attempts)`);
        assert.ok(starts.every((t) => t < maxTotalMs), `an attempt started past ${maxTotalMs} ms: ${starts.join(', ')}`);
        assert.ok(clock.sleeps.every((w) => w.at + w.ms < maxTotalMs), `a wait ran past ${maxTotalMs} ms: ${JSON.stringify(clock.sleeps)}`);
        assert.ok(clock.now() <= maxTotalMs, `ended at ${clock.now()} ms for maxTotalMs ${maxTotalMs}`);
      }
    });

    it('does not wait for a Retry-After past it', async () => {
      server.handler = (_r, res) => json(res, 503, {}, { 'retry-after': '5' });
      const clock = manualClock();
      const r = await send(opts({ clock, retry: { maxTotalMs: 500 } }), { method: 'GET', url: `${server.origin}/x`, token, repeat: SAFE });
      assert.equal(r.status, 503);
      assert.equal(r.retriesExhausted, true);
      assert.deepEqual(clock.sleeps, [], 'waited although the Retry-After lay past the deadline');
    });

    it('holds the duplicate check of a create within it too (the check read hangs)', async () => {
      const clock = manualClock();
      let late: NodeJS.Timeout | undefined;
      server.handler = (r, res) => {
        if (r.method === 'POST') return (clock.advance(350), json(res, 502, {})); // the create's answer took 350 of the 400 ms
        // The list read of the check: held to the create's deadline, then "not there" (which would let the create be sent
        // again). The read's timer, cut to the 50 ms left, fires before this real 2 s timer; an uncut 10 s one would not.
        clock.advance(400 - clock.now());
        late = setTimeout(() => json(res, 200, { results: [], totalRecordCount: 0, page: 1, pageSize: 10, totalPages: 1 }), 2000);
      };
      const client = createPartnerClient({ baseUrls: { v3: `${server.origin}/api/v3` }, token, dispatcher: agent, clock, timeoutMs: 10_000, retry: { maxTotalMs: 400, baseDelayMs: 5, maxDelayMs: 10 } });
      const reg = { product_id: 'P', invoiceNumber: 'INV-1', enrollDate: '2025-01-01', customer: { name: 'A', email: 'a@b.c' }, vehicle: { year: 2020, make: 'F', model: 'G' }, tires: [{ make: 'M', model: 'X', size: '1', retailPrice: 1 }] };
      const outcome = await client.call('createTireProtectionRegistration', {}, reg).then(
        (v) => v,
        (e: unknown) => e,
      );
      clearTimeout(late);
      assert.ok(outcome instanceof ApiError && outcome.outcomeUnknown, String(outcome));
      assert.equal(server.requests.filter((q) => q.method === 'GET').length, 1, 'the check read once');
      assert.equal(server.requests.filter((q) => q.method === 'POST').length, 1, 'the create was resent without a completed check');
      assert.ok(clock.now() <= 400, `ended at ${clock.now()} ms`);
    });
  });

  describe('response-size cap', () => {
    /** Streams `total` bytes of JSON text (chunked, no Content-Length) and records how many were written when the client hung up. */
    const stream = (total: number, written: { bytes: number; closed: boolean }) => (_r: unknown, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      res.on('close', () => (written.closed = true));
      const pump = () => {
        while (written.bytes < total && !written.closed) {
          written.bytes += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!written.closed) res.end();
      };
      pump();
    };

    it('stops reading a 50 MB answer at the limit (16 MiB by default) with an error naming the size and the limit', async () => {
      const written = { bytes: 0, closed: false };
      server.handler = stream(50 * 1024 * 1024, written);
      const err = await send(opts(), { method: 'GET', url: `${server.origin}/big`, token, repeat: SAFE }).then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof ResponseTooLargeError, String(err));
      assert.equal(err.limitBytes, 16 * 1024 * 1024);
      assert.ok(err.sizeBytes > err.limitBytes && err.sizeBytes < err.limitBytes + 1024 * 1024, String(err.sizeBytes));
      assert.match(err.message, /GET .*\/big answered 200 with a body of more than 16,777,216 bytes \(16\.0 MiB\).*over the limit of 16,777,216 bytes/);
      await eventually(() => written.closed); // the client hangs up (else the test times out)
      assert.ok(written.bytes < 30 * 1024 * 1024, `the server wrote ${written.bytes} bytes: the answer was read on`);
      assert.equal(server.requests.length, 1, 'not repeated');
    });

    it('does not start reading when Content-Length is over maxResponseBytes', async () => {
      server.handler = (_r, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) });
        res.write(Buffer.alloc(64 * 1024, 0x20)); // and never the rest
      };
      const err = await send(opts({ maxResponseBytes: 1024 * 1024 }), { method: 'GET', url: `${server.origin}/big`, token, repeat: SAFE }).then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof ResponseTooLargeError, String(err));
      assert.equal(err.declared, true);
      assert.equal(err.sizeBytes, 50 * 1024 * 1024);
      assert.match(err.message, /a body of 52,428,800 bytes \(50\.0 MiB\) \(Content-Length\), over the limit of 1,048,576 bytes/);
    });

    it('reads an answer at the limit whole', async () => {
      const body = JSON.stringify({ s: 'x'.repeat(1000) });
      server.handler = (_r, res) => json(res, 200, JSON.parse(body));
      const r = await send(opts({ maxResponseBytes: Buffer.byteLength(body) }), { method: 'GET', url: `${server.origin}/x`, token, repeat: SAFE });
      assert.equal(r.rawBody, body);
    });
  });
});
