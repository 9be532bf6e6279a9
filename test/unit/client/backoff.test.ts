import assert from 'node:assert/strict';
import fc from 'fast-check';
import { backoffDelayMs, normalizeRetry, parseRetryAfterMs, sleep, DEFAULT_RETRY } from '../../../src/core/client/backoff';
import { isLoopbackHost, insecureUrlProblem } from '../../../src/core/client/urlPolicy';

describe('client backoff and Retry-After (spec: Errors — 429, 5xx)', () => {
  it('grows exponentially with jitter, within [cap/2, cap] of min(maxDelay, base·2^(n-1))', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (attempt, r) => {
        const s = { baseDelayMs: 100, maxDelayMs: 5000 };
        const cap = Math.min(5000, 100 * 2 ** (attempt - 1));
        const d = backoffDelayMs(attempt, s, undefined, () => r);
        return d >= Math.floor(cap / 2) && d <= cap;
      }),
    );
    assert.equal(backoffDelayMs(1, { baseDelayMs: 100, maxDelayMs: 5000 }, undefined, () => 0), 50);
    assert.equal(backoffDelayMs(4, { baseDelayMs: 100, maxDelayMs: 5000 }, undefined, () => 0.999999), 800);
    assert.equal(backoffDelayMs(20, { baseDelayMs: 100, maxDelayMs: 5000 }, undefined, () => 0), 2500);
  });

  it('never waits less than Retry-After, even above the cap', () => {
    assert.equal(backoffDelayMs(1, { baseDelayMs: 100, maxDelayMs: 500 }, 3000, () => 0.5), 3000);
    assert.equal(backoffDelayMs(3, { baseDelayMs: 100, maxDelayMs: 500 }, 10, () => 0), 200);
  });

  it('parses Retry-After as seconds or an HTTP date, and ignores nonsense', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    assert.equal(parseRetryAfterMs('3', now), 3000);
    assert.equal(parseRetryAfterMs(' 0 ', now), 0);
    assert.equal(parseRetryAfterMs(['2', '9'], now), 2000);
    assert.equal(parseRetryAfterMs('Sat, 21 Nov 2026 12:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfterMs('Sat, 21 Nov 2026 11:00:00 GMT', now), 0);
    assert.equal(parseRetryAfterMs(undefined, now), undefined);
    assert.equal(parseRetryAfterMs('-1', now), undefined);
    assert.equal(parseRetryAfterMs('1.5', now), undefined);
    assert.equal(parseRetryAfterMs('soon', now), undefined);
  });

  it('repairs unusable retry settings instead of failing', () => {
    assert.deepEqual(normalizeRetry(), DEFAULT_RETRY);
    assert.deepEqual(normalizeRetry({ maxAttempts: Number.NaN, maxTotalMs: -5, baseDelayMs: 1000, maxDelayMs: 10 }), {
      maxAttempts: 5,
      maxTotalMs: 30_000,
      baseDelayMs: 1000,
      maxDelayMs: 1000,
    });
    assert.equal(normalizeRetry({ maxAttempts: 2.7 }).maxAttempts, 2);
    assert.equal(normalizeRetry({ maxAttempts: 0 }).maxAttempts, 5);
  });

  it('sleep rejects at once when aborted', async () => {
    const ac = new AbortController();
    const waiting = sleep(60_000, ac.signal);
    ac.abort(new Error('stop'));
    // "At once" told by order: the rejection comes before the event loop's next turn, not when the timer runs out.
    const first = await Promise.race([waiting.then(() => 'resolved', (err: unknown) => err), new Promise((r) => setImmediate(() => r('the next turn')))]);
    assert.match(String(first), /stop/);
    await assert.rejects(sleep(60_000, ac.signal), /stop/, 'an aborted signal: no wait at all');
  });
});

describe('client address policy', () => {
  it('knows loopback hosts', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', 'api.localhost', '[::1]', 'LOCALHOST']) assert.equal(isLoopbackHost(h), true, h);
    for (const h of ['10.0.0.1', '128.0.0.1', 'example.com', 'localhost.example.com', '[::2]', '0.0.0.0']) assert.equal(isLoopbackHost(h), false, h);
  });

  it('allows https anywhere and http only on loopback', () => {
    assert.equal(insecureUrlProblem(new URL('https://partner.example.com/api/v3')), undefined);
    assert.equal(insecureUrlProblem(new URL('http://127.0.0.1:3000/api/v3')), undefined);
    assert.equal(insecureUrlProblem(new URL('http://[::1]:3000/api/v3')), undefined);
    assert.match(insecureUrlProblem(new URL('http://partner.example.com/api/v3')) ?? '', /plain http is refused/);
    assert.match(insecureUrlProblem(new URL('ws://127.0.0.1/')) ?? '', /not supported/);
  });
});
