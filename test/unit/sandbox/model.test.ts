import { strict as assert } from 'node:assert';
import { addMonths, countsOf, RegistrationRecord } from '../../../src/core/sandbox/model';
import { newId, reserveIds } from '../../../src/core/sandbox/ops/common';

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
    tireClaimCount: 0,
    tireCancelCount: 0,
    body: {},
    ...over,
  });
  const claimed = (n: number) => ({ tireClaimCount: n });
  const cancelled = (n: number) => ({ tireCancelCount: n, cancelledOn: '2024-06-01T00:00:00.000Z' });
  const at = Date.parse('2025-01-01T00:00:00Z');

  it('adds calendar months, clamping the day to the month length', () => {
    assert.equal(addMonths('2024-01-31T00:00:00.000Z', 1), '2024-02-29T00:00:00.000Z');
    assert.equal(addMonths('2023-01-31T10:00:00.000Z', 1), '2023-02-28T10:00:00.000Z');
    assert.equal(addMonths('2024-02-29T00:00:00.000Z', 36), '2027-02-28T00:00:00.000Z');
    assert.equal(addMonths('2024-05-15T00:00:00.000Z', 36), '2027-05-15T00:00:00.000Z');
  });

  it('WarrantyStatus: 1 active, 3 no tires left, 2 cancelled (wins), 4 expired', () => {
    assert.equal(countsOf(reg(), at, 36).warrantyStatus, 1);
    const noTires = countsOf(reg(claimed(4)), at, 36);
    assert.deepEqual([noTires.warrantyStatus, noTires.tiresLeft, noTires.tireClaimCount], [3, 0, 4]);
    const c = countsOf(reg({ ...claimed(1), ...cancelled(3) }), at, 36);
    assert.deepEqual([c.warrantyStatus, c.tiresLeft, c.tireCancelCount, c.cancelledOn], [2, 0, 3, '2024-06-01T00:00:00.000Z']);
    const expired = countsOf(reg(), Date.parse('2027-02-01T00:00:00Z'), 36);
    assert.deepEqual([expired.warrantyStatus, expired.expired, expired.expirationDate], [4, true, '2027-01-31T00:00:00.000Z']);
    assert.equal(countsOf(reg(cancelled(4)), Date.parse('2030-01-01T00:00:00Z'), 36).warrantyStatus, 2);
    assert.equal(countsOf(reg(claimed(9)), at, 36).tiresLeft, 0, 'never below 0');
  });

  it('without an enrolment date: no expiration date and never expired (no term start to count from)', () => {
    const k = countsOf(reg({ enrollDate: '' }), Date.parse('2099-01-01T00:00:00Z'), 36);
    assert.deepEqual([k.expirationDate, k.expired, k.warrantyStatus], [undefined, false, 1]);
  });
});

describe('Local sandbox: record identifiers', () => {
  it('are 24 hex digits, increase within a process, and never reuse a block reserved by a bulk load', () => {
    const a = newId(Date.now());
    const first = reserveIds(1000);
    const b = newId(Date.now());
    assert.match(a, /^[0-9a-f]{24}$/);
    const counterOf = (id: string) => Number.parseInt(id.slice(18), 16);
    assert.equal(first, (counterOf(a) + 1) % 0x1000000);
    assert.equal(counterOf(b), (first + 1000) % 0x1000000, 'the next id comes after the reserved block');
    assert.equal(a.slice(8, 18), b.slice(8, 18), 'one process part');
  });
});
