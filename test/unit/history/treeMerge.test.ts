// Registrations folders never show a registration twice (VS Code refuses a repeated row id), whatever others write
// between two Load more clicks: pages are read by offset (spec: Tire-protection registrations, list query page and
// pageSize), so a row created before the boundary shifts the next page onto rows already shown.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { hasMorePages, mergePages, readNextPages, RegistrationPage } from '../../../src/core/listing/registrationPages';
import { uniqueById } from '../../../src/core/listing/uniqueRows';

/** A server listing by offset over `ids`, where others insert rows anywhere (newest first, or by invoice number). */
function server(initial: number, pageSize: number) {
  const ids = Array.from({ length: initial }, (_, i) => `r${i}`);
  let reads = 0;
  let created = 0;
  const load = async (page: number): Promise<RegistrationPage> => {
    reads += 1;
    const rows = ids.slice((page - 1) * pageSize, page * pageSize).map((_id) => ({ record: { _id, invoiceNumber: `INV-${_id}`, read: reads }, state: 'Not cancelled' as const }));
    return { page, pageSize, totalRecordCount: ids.length, totalPages: Math.ceil(ids.length / pageSize), rows };
  };
  const insert = (at: number) => ids.splice(at % (ids.length + 1), 0, `n${created++}`);
  return { ids, load, insert };
}

describe('registrations folder: each registration once across shifting pages', () => {
  it('over random interleavings of page reads and others’ creates: unique ids, none skipped, latest read wins', async () => {
    const op = fc.oneof(fc.record({ insert: fc.nat(1000) }), fc.constant({ more: true as const }));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 7 }), fc.array(op, { maxLength: 40 }), async (initial, pageSize, ops) => {
        const s = server(initial, pageSize);
        const before = [...s.ids];
        let pages = [await s.load(1)];
        const latest = new Map<string, number>();
        const note = (ps: readonly RegistrationPage[]) => {
          for (const p of ps) for (const r of p.rows) latest.set(String(r.record._id), Math.max(latest.get(String(r.record._id)) ?? 0, Number(r.record.read)));
        };
        for (const o of ops) {
          if ('insert' in o) s.insert(o.insert);
          else if (hasMorePages(pages)) pages = await readNextPages(pages, s.load);
        }
        for (let i = 0; i < 100 && hasMorePages(pages); i++) pages = await readNextPages(pages, s.load);
        note(pages);
        const shown = mergePages(pages);
        const ids = shown.map((r) => String(r.row.record._id));
        assert.equal(new Set(ids).size, ids.length, `repeated: ${ids.join(',')}`);
        assert.deepEqual(new Set(shown.map((r) => r.key)), new Set(ids));
        for (const id of before) assert.ok(ids.includes(id), `${id} was never shown`);
        // Created since the first read, too: the count shown is the server's latest total.
        assert.equal(ids.length, pages.at(-1)!.totalRecordCount, 'every registration the server counted');
        for (const id of ids) assert.ok(s.ids.includes(id));
        for (const r of shown) {
          assert.equal(r.warning, undefined);
          assert.equal(r.row.record.read, latest.get(r.key), `${r.key} shows an older read`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a page that brings nothing new (a page or more created meanwhile) reads on, within a fixed bound', async () => {
    const s = server(6, 3);
    const pages = [await s.load(1)];
    for (let i = 0; i < 3; i++) s.insert(0); // newest first: the three rows shown move to page 2
    const all = await readNextPages(pages, s.load);
    assert.deepEqual(
      all.map((p) => p.page),
      [1, 2, 3],
    );
    assert.deepEqual(
      mergePages(all).map((r) => r.key),
      ['r0', 'r1', 'r2', 'r3', 'r4', 'r5'],
    );
  });

  it('a row repeated in one answer, or without _id, is shown once with a warning, and nothing throws', async () => {
    const id = fc.constantFrom('a', 'b', 'c', '', undefined, 7);
    await fc.assert(
      fc.property(fc.array(fc.array(id, { maxLength: 6 }), { minLength: 1, maxLength: 5 }), (pagesOfIds) => {
        const pages: RegistrationPage[] = pagesOfIds.map((ids, i) => ({ page: i + 1, pageSize: 6, rows: ids.map((_id) => ({ record: _id === undefined ? { invoiceNumber: 'X' } : { _id }, state: 'Not cancelled' as const })) }));
        const shown = mergePages(pages);
        const keys = shown.map((r) => r.key);
        assert.equal(new Set(keys).size, keys.length);
        for (const v of ['a', 'b', 'c']) assert.equal(keys.filter((k) => k === v).length, pagesOfIds.some((p) => p.includes(v)) ? 1 : 0);
        for (const r of shown) if (typeof r.row.record._id !== 'string' || r.row.record._id === '') assert.match(String(r.warning), /without an _id/);
        for (const [i, ids] of pagesOfIds.entries())
          for (const v of ['a', 'b', 'c'])
            if (ids.filter((x) => x === v).length > 1 && !pagesOfIds.slice(i + 1).some((p) => p.includes(v))) assert.match(String(shown.find((r) => r.key === v)?.warning), /twice in one page/);
        hasMorePages(pages);
      }),
      { numRuns: 300 },
    );
  });
});

describe('uniqueById (history and Integration Log rows)', () => {
  it('keeps each id once at its first place: the latest read, or the newest of a newest-first list', () => {
    const rows = [
      { id: 'a', v: 1 },
      { id: 'b', v: 1 },
      { id: 'a', v: 2 },
    ];
    assert.deepEqual(uniqueById(rows, (r) => r.id), [
      { id: 'a', v: 2 },
      { id: 'b', v: 1 },
    ]);
    assert.deepEqual(uniqueById(rows, (r) => r.id, true), [
      { id: 'a', v: 1 },
      { id: 'b', v: 1 },
    ]);
  });
});
