// What the Environments view knows of registrations (spec: Tire-protection registrations: list query page, pageSize,
// invoiceNumber, storeNumber; metadata; States and transitions), without an editor: the reads are a fake server.
import * as assert from 'node:assert/strict';
import type { EnvironmentId } from '../../../src/core/environments';
import { ListChange, RecordChange, RegistrationListings } from '../../../src/core/listing/registrationListings';

const NOW = Date.parse('2026-11-27T10:00:00Z');

/** A fake partner API of `count` tire-protection registrations, recording every request. */
function server(count: number) {
  const rows = Array.from({ length: count }, (_, i) => ({ _id: `r${i + 1}`, invoiceNumber: `INV-${i + 1}` }));
  const calls: string[] = [];
  const lists: ListChange[] = [];
  const records: RecordChange[] = [];
  const filtered: boolean[] = [];
  let failList = false;
  let metadata: Record<string, unknown> | Error = { isActive: true, availableTiresCount: 4, expirationDate: '2029-01-01T00:00:00Z' };
  const listings = new RegistrationListings(
    {
      list: (env) => (endpointId, _params, o) => {
        calls.push(`${env} ${endpointId} ${JSON.stringify(o.query)}`);
        if (failList) return Promise.reject(new Error('503 Service Unavailable'));
        const q = o.query as { page: number; pageSize: number; invoiceNumber?: string };
        const matching = rows.filter((r) => !q.invoiceNumber || r.invoiceNumber === q.invoiceNumber);
        const results = matching.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
        return Promise.resolve({ body: { results, page: q.page, pageSize: q.pageSize, totalRecordCount: matching.length, totalPages: Math.ceil(matching.length / q.pageSize) } });
      },
      read: (env, endpointId, id) => {
        calls.push(`${env} ${endpointId} ${id}`);
        if (endpointId === 'getTireProtectionRegistration') return Promise.resolve({ _id: id, claims: [] });
        return metadata instanceof Error ? Promise.reject(metadata) : Promise.resolve(metadata);
      },
      pageSize: () => 2,
      now: () => NOW,
    },
    { list: (c) => lists.push(c), record: (c) => records.push(c), filtered: (any) => filtered.push(any) },
  );
  return {
    listings,
    calls,
    lists,
    records,
    filtered,
    failLists: (on: boolean) => (failList = on),
    setMetadata: (m: Record<string, unknown> | Error) => (metadata = m),
  };
}

const L: EnvironmentId = 'local';
const TP = 'tire-protection' as const;
const ids = (pages: readonly { rows: readonly { record: Record<string, unknown> }[] }[]) => pages.flatMap((p) => p.rows.map((r) => r.record._id));

describe('registration listings (the Environments view without the editor)', () => {
  it('reads page 1 once with the page size and the exact filter; redraws send nothing', async () => {
    const s = server(5);
    s.listings.setFilter(L, TP, { invoiceNumber: 'INV-3', invoicePrefix: 'INV', storeNumber: '' });
    assert.deepEqual(s.listings.filter(L, TP), { invoiceNumber: 'INV-3' }, 'empty strings clear; an exact number drops the prefix');
    assert.deepEqual(ids(await s.listings.pages(L, TP)), ['r3']);
    await s.listings.pages(L, TP);
    assert.deepEqual(s.calls, ['local listTireProtectionRegistrations {"page":1,"pageSize":2,"invoiceNumber":"INV-3"}']);
    assert.deepEqual(s.filtered, [true]);
    s.listings.setFilter(L, TP, {});
    assert.deepEqual(s.filtered, [true, false]);
  });

  it('keeps a failed list read until invalidated (Retry), then reads again; one event per list', async () => {
    const s = server(3);
    s.failLists(true);
    await assert.rejects(s.listings.pages(L, TP), /503/);
    await assert.rejects(s.listings.pages(L, TP), /503/);
    assert.equal(s.calls.length, 1, 'the failing request is not repeated by a redraw');
    s.failLists(false);
    s.listings.invalidate(L, TP);
    assert.deepEqual(s.lists, [{ env: L, product: TP }]);
    assert.deepEqual(ids(await s.listings.pages(L, TP)), ['r1', 'r2']);
    s.listings.invalidate();
    assert.equal(s.lists.length, 1 + 3 * 2, 'every environment and product once');
  });

  it('Load more reads the next page once however often it is clicked, and says how many were added', async () => {
    const s = server(5);
    await s.listings.pages(L, TP);
    const [a, b] = await Promise.all([s.listings.loadMore(L, TP), s.listings.loadMore(L, TP)]);
    assert.deepEqual([a, b], [2, 2]);
    assert.deepEqual(ids(s.listings.loadedPages(L, TP)!), ['r1', 'r2', 'r3', 'r4']);
    assert.equal(s.calls.length, 2);
    assert.deepEqual(s.lists, [{ env: L, product: TP }]);
  });

  it('matches the invoice prefix among the rows read, in any case', async () => {
    const s = server(12);
    s.listings.setFilter(L, TP, { invoicePrefix: 'iNv-1' });
    const rows = (await s.listings.pages(L, TP)).flatMap((p) => p.rows);
    assert.deepEqual(rows.filter((r) => s.listings.matches(L, TP, r)).map((r) => r.record._id), ['r1']);
    assert.equal(s.calls[0], 'local listTireProtectionRegistrations {"page":1,"pageSize":2}', 'the prefix is not a query of the spec');
  });

  it("reads a registration and its metadata once; the row's state comes from the metadata; a metadata failure is kept on the details", async () => {
    const s = server(2);
    const row = (await s.listings.pages(L, TP))[0]!.rows[0]!;
    assert.equal(s.listings.stateOf(L, row).state, 'Not cancelled', 'what the listed record says before the details');
    s.setMetadata({ isActive: true, availableTiresCount: 0 });
    await s.listings.registrationDetails(L, 'r1');
    await s.listings.registration(L, 'r1');
    assert.equal(s.calls.filter((c) => c.includes(' r1')).length, 2);
    assert.deepEqual(s.records, [{ env: L, id: 'r1' }]);
    assert.equal(s.listings.stateOf(L, row).state, 'No tires left');
    s.setMetadata(new Error('404 Not Found'));
    const d = await s.listings.registrationDetails(L, 'r2');
    assert.deepEqual([d.registration._id, d.metadataError], ['r2', '404 Not Found']);
  });

  it('a claim or cancellation by id reads that registration again and redraws its row only; a create drops its lists; a shop write nothing', async () => {
    const s = server(2);
    await s.listings.registrationDetails(L, 'r1');
    s.calls.length = 0;
    s.records.length = 0;
    s.listings.dataChanged({ env: L, endpointId: 'createTireProtectionClaim', params: { id: 'r1' } });
    s.listings.dataChanged({ env: L, endpointId: 'cancelTireProtectionRegistration', params: { id: 'r2' } });
    await s.listings.settled(L);
    assert.deepEqual(s.calls.filter((c) => c.includes('getTireProtectionRegistration ')).sort(), ['local getTireProtectionRegistration r1', 'local getTireProtectionRegistration r2']);
    assert.ok(s.records.some((r) => r.id === 'r1') && s.records.some((r) => r.id === 'r2'));
    assert.deepEqual(s.lists, [], 'no folder redraws');
    s.listings.dataChanged({ env: L, endpointId: 'createTireProtectionRegistration' });
    assert.deepEqual(s.lists, [{ env: L, product: TP }]);
    s.listings.dataChanged({ env: L, endpointId: 'v2PostRecords' });
    assert.deepEqual(s.lists.slice(1), [{ env: L, product: TP }, { env: L, product: 'motor-club' }]);
    s.listings.dataChanged({ env: L, endpointId: 'createShop' });
    assert.equal(s.lists.length, 3);
  });
});
