// The request history on disk ("history stored incrementally"): one JSON Lines line appended per
// request, rotation at the limit, the newest `limit` entries read back, tokens masked before they are written
// (Developers' guide: Secrets), damaged lines skipped.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { NewHistoryEntry } from '../../../src/core/history/history';
import { CURRENT_FILE, HistoryLog, ROTATED_FILE } from '../../../src/core/history/historyLog';

const JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiI0MiJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';

function entry(i: number, extra: Partial<NewHistoryEntry> = {}): NewHistoryEntry {
  return { env: i % 2 ? 'local' : 'sandbox', time: new Date(Date.UTC(2026, 10, 21, 12, 0, i)).toISOString(), method: 'GET', path: `/p?i=${i}`, url: `http://127.0.0.1:1/p?i=${i}`, status: 200, durationMs: i, attempts: 1, ...extra };
}

describe('request history file (JSON Lines with rotation)', () => {
  let dir: string;
  const lines = (f: string) => (fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean) : []);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tpp-history-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('appends one line per request and never rewrites what is there', async () => {
    const log = HistoryLog.open(dir, 10);
    log.append(entry(1));
    await log.flushed();
    const first = fs.readFileSync(path.join(dir, CURRENT_FILE), 'utf8');
    log.append(entry(2));
    log.append(entry(3));
    await log.flushed();
    const after = fs.readFileSync(path.join(dir, CURRENT_FILE), 'utf8');
    assert.ok(after.startsWith(first), 'earlier lines are left as they were');
    assert.equal(lines(CURRENT_FILE).length, 3);
    assert.deepEqual(lines(CURRENT_FILE).map((l) => (JSON.parse(l) as { path: string }).path), ['/p?i=1', '/p?i=2', '/p?i=3'], 'oldest first on disk');
  });

  it('rotates at the limit and reads back the newest `limit` entries, newest first', async () => {
    const log = HistoryLog.open(dir, 3);
    for (let i = 1; i <= 3; i++) log.append(entry(i));
    await log.flushed();
    assert.equal(lines(ROTATED_FILE).length, 3);
    assert.equal(lines(CURRENT_FILE).length, 0);
    for (let i = 4; i <= 7; i++) log.append(entry(i));
    await log.flushed();
    assert.equal(lines(ROTATED_FILE).length, 3, 'the rotated file holds the 3 entries before the current ones');
    assert.equal(lines(CURRENT_FILE).length, 1);
    assert.deepEqual(log.list().map((e) => e.path), ['/p?i=7', '/p?i=6', '/p?i=5']);
    const again = HistoryLog.open(dir, 3);
    assert.deepEqual(again.list().map((e) => e.path), ['/p?i=7', '/p?i=6', '/p?i=5']);
    assert.deepEqual(again.list('local').map((e) => e.path), ['/p?i=7', '/p?i=5']);
    assert.equal(again.get(log.list()[0]!.id)?.path, '/p?i=7', 'ids survive a reload');
  });

  it('masks tokens before writing them', async () => {
    const log = HistoryLog.open(dir);
    log.append(entry(1, { url: `http://127.0.0.1:1/p?token=${JWT}`, error: `Bearer ${JWT}`, replay: { endpointId: 'verifyToken', bodyJson: JSON.stringify({ jwt: JWT }) } }));
    await log.flushed();
    const text = fs.readFileSync(path.join(dir, CURRENT_FILE), 'utf8');
    assert.ok(!text.includes(JWT.slice(20)), text);
    assert.match(text, /masked/);
  });

  it('skips a damaged line (a write cut short) and keeps the rest', () => {
    const good = JSON.stringify({ id: 'a', env: 'local', time: '2026-11-21T12:00:00.000Z', method: 'GET', path: '/ok', url: 'http://x/ok', durationMs: 1, attempts: 1 });
    fs.writeFileSync(path.join(dir, CURRENT_FILE), `${good}\n{"id":"b","env":"lo`);
    assert.deepEqual(HistoryLog.open(dir).list().map((e) => e.path), ['/ok']);
  });

  it('clears one environment on disk too', async () => {
    const log = HistoryLog.open(dir, 3);
    for (let i = 1; i <= 5; i++) log.append(entry(i));
    log.clear('sandbox');
    await log.flushed();
    assert.deepEqual(HistoryLog.open(dir, 3).list().map((e) => e.env), ['local', 'local']);
  });
});
