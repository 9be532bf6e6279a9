import { strict as assert } from 'node:assert';
import { addMonths, countsOf, RegistrationRecord } from '../../../src/core/sandbox/model';
import { OrderedMap } from '../../../src/core/sandbox/store';

/** Derived counters and WarrantyStatus (spec: States and transitions), program term arithmetic, paging structure. */
describe('Local sandbox: model', () => {
  const reg = (over: Partial<RegistrationRecord> = {}): RegistrationRecord => ({
    _id: 'a',
    registrationId: 1,
    source: 'tire-protection',
    invoiceNumber: 'I',
    storeNumber: '',
    orgId: '',
    enrollDate: '2024-01-31T00:00:00.000Z',
    createdDate: '2024-01-31T00:00:00.000Z',
    statusDate: '2024-01-31T00:00:00.000Z',
    tiresCovered: 4,
    body: {},
    claims: [],
    cancellations: [],
    ...over,
  });
  const claim = (n: number) => ({ id: 1, source: 'v3' as const, createdDate: '', tireCount: n, body: {} });
  const cancel = (n: number) => ({ source: 'v3' as const, createdDate: '', cancelledOn: '2024-06-01T00:00:00.000Z', tireCount: n, body: {} });
  const at = Date.parse('2025-01-01T00:00:00Z');

  it('adds calendar months, clamping the day to the month length', () => {
    assert.equal(addMonths('2024-01-31T00:00:00.000Z', 1), '2024-02-29T00:00:00.000Z');
    assert.equal(addMonths('2023-01-31T10:00:00.000Z', 1), '2023-02-28T10:00:00.000Z');
    assert.equal(addMonths('2024-02-29T00:00:00.000Z', 36), '2027-02-28T00:00:00.000Z');
    assert.equal(addMonths('2024-05-15T00:00:00.000Z', 36), '2027-05-15T00:00:00.000Z');
  });

  it('WarrantyStatus: 1 active, 3 no tires left, 2 cancelled (wins), 4 expired', () => {
    assert.equal(countsOf(reg(), at, 36).warrantyStatus, 1);
    const noTires = countsOf(reg({ claims: [claim(3), claim(1)] }), at, 36);
    assert.deepEqual([noTires.warrantyStatus, noTires.tiresLeft, noTires.tireClaimCount], [3, 0, 4]);
    const cancelled = countsOf(reg({ claims: [claim(1)], cancellations: [cancel(3)] }), at, 36);
    assert.deepEqual([cancelled.warrantyStatus, cancelled.tiresLeft, cancelled.tireCancelCount, cancelled.cancelledOn], [2, 0, 3, '2024-06-01T00:00:00.000Z']);
    const expired = countsOf(reg(), Date.parse('2027-02-01T00:00:00Z'), 36);
    assert.deepEqual([expired.warrantyStatus, expired.expired, expired.expirationDate], [4, true, '2027-01-31T00:00:00.000Z']);
    assert.equal(countsOf(reg({ cancellations: [cancel(4)] }), Date.parse('2030-01-01T00:00:00Z'), 36).warrantyStatus, 2);
    assert.equal(countsOf(reg({ claims: [claim(9)] }), at, 36).tiresLeft, 0, 'never below 0');
  });

  it('OrderedMap keeps insertion order on update and slices pages', () => {
    const m = new OrderedMap<number>();
    for (let i = 0; i < 10; i++) assert.equal(m.put(`k${i}`, i), true);
    assert.equal(m.put('k3', 33), false);
    assert.deepEqual(m.slice(2, 5), [2, 33, 4]);
    assert.deepEqual(m.slice(9, 20), [9]);
    assert.deepEqual(m.slice(20, 30), []);
    assert.equal(m.size, 10);
  });
});
