import { strict as assert } from 'node:assert';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Exchange } from '../../../src/core/exchange/types';
import { LOG_FILE, ROTATED_LOG_FILE, RequestLogFile } from '../../../src/core/requestLog/requestLogFile';

const JWT = 'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJQMSIsImF1ZCI6Imh0dHA6Ly94In0.c2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJl';
const PEM = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----';

function exchange(i: number, over: Partial<Exchange> = {}): Exchange {
  return { id: `x${i}`, env: 'local', source: 'sandbox-log', time: new Date(1_700_000_000_000 + i).toISOString(), request: { method: 'GET', url: `http://127.0.0.1:1/api/v3/r/${i}` }, response: { status: 200 }, durationMs: 1, attempts: 1, ...over };
}

/** The Integration Log's file: JSON Lines appended, rotated at the limit, masked, surviving a reopen. */
describe('Integration log file (JSON Lines, rotated)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tpp-ilog-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the newest `limit` entries across a reopen, appending and rotating without rewriting', async () => {
    const f = RequestLogFile.open(dir, 3);
    f.append([exchange(1), exchange(2)]);
    f.append([exchange(3), exchange(4)]);
    await f.flushed();
    assert.deepEqual(f.list().map((x) => x.id), ['x2', 'x3', 'x4']);
    assert.deepEqual(readdirSync(dir).sort(), [ROTATED_LOG_FILE, LOG_FILE].sort());
    assert.equal(readFileSync(join(dir, LOG_FILE), 'utf8').trim().split('\n').length, 1);
    const again = RequestLogFile.open(dir, 3);
    assert.deepEqual(again.list().map((x) => x.id), ['x2', 'x3', 'x4']);
    again.clear();
    await again.flushed();
    assert.deepEqual(RequestLogFile.open(dir, 3).list(), []);
  });

  it('never stores a full token or a private key', async () => {
    const f = RequestLogFile.open(dir, 10);
    f.append([
      exchange(1, {
        request: { method: 'POST', url: `http://h/p?token=${JWT}`, headers: { authorization: `Bearer ${JWT}`, 'x-note': JWT }, body: JSON.stringify({ key: PEM, note: JWT, password: 'hunter2' }) },
        response: { status: 400, body: JSON.stringify({ message: `bad ${JWT}` }) },
        diagnosis: [{ rule: 'aud', message: `token ${JWT}` }],
      }),
    ]);
    await f.flushed();
    const text = readFileSync(join(dir, LOG_FILE), 'utf8');
    for (const secret of [JWT.split('.')[1] as string, JWT.split('.')[2] as string, 'MIGHAgEAMBMGByqGSM49', 'hunter2']) assert.ok(!text.includes(secret), `stored: ${secret}`);
    assert.equal(f.list()[0]?.request.headers?.authorization, 'Bearer [masked]');
  });

  it('skips damaged lines', async () => {
    const f = RequestLogFile.open(dir, 10);
    f.append([exchange(1)]);
    await f.flushed();
    appendFileSync(join(dir, LOG_FILE), '{"id": "cut sh\n');
    assert.deepEqual(RequestLogFile.open(dir, 10).list().map((x) => x.id), ['x1']);
  });
});
