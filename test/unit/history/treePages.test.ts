// Registration pages of the Environments tree (no editor needed): state per registration from its metadata
// (spec: States and transitions; Registration metadata), paging, and one list request per page.
import * as assert from 'node:assert/strict';
import { hasMorePages, ListCall, loadRegistrationPage, registrationState } from '../../../src/core/listing/registrationPages';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const active = { enrollDate: '2026-01-01', expirationDate: '2029-01-01', claimedTiresCount: 0, availableTiresCount: 4, hasTiresToClaim: true, hasTiresToReplace: true, isActive: true };

describe('tree registration pages', () => {
  it('derives Active, Cancelled, Expired, No tires left and Not cancelled (no metadata yet)', () => {
    assert.equal(registrationState({}, active, NOW), 'Active');
    assert.equal(registrationState({ cancelledOn: '2026-02-01' }, { ...active, isActive: false }, NOW), 'Cancelled');
    assert.equal(registrationState({}, { ...active, isActive: false, expirationDate: '2026-01-01' }, NOW), 'Expired');
    assert.equal(registrationState({}, { ...active, availableTiresCount: 0, hasTiresToClaim: false }, NOW), 'No tires left');
    assert.equal(registrationState({}, undefined, NOW), 'Not cancelled');
    assert.equal(registrationState({ cancelledOn: '2026-02-01' }, undefined, NOW), 'Cancelled');
    assert.equal(registrationState({}, undefined, NOW, 'motor-club'), 'Active');
    assert.equal(registrationState({ cancelledOn: '2026-02-01' }, undefined, NOW, 'motor-club'), 'Cancelled');
    // A registration created without enrollDate or tires: metadata without dates (it does not expire), no tires.
    const undated = { claimedTiresCount: 0, availableTiresCount: 0, hasTiresToClaim: false, hasTiresToReplace: false, isActive: true };
    assert.equal(registrationState({}, undated, NOW), 'No tires left');
    assert.equal(registrationState({}, { ...undated, availableTiresCount: 2, hasTiresToClaim: true }, NOW), 'Active');
  });

  it('lists one page with the filter in one request: the state is what each listed record says', async () => {
    const calls: string[] = [];
    const call: ListCall = async (id, params, o) => {
      calls.push(`${id} ${JSON.stringify(o.query ?? params)}`);
      return { body: { results: [{ _id: 'a', invoiceNumber: 'I-1' }, { _id: 'b', invoiceNumber: 'I-2', cancelledOn: '2026-03-01' }, { _id: 'c', invoiceNumber: 'I-3' }], totalRecordCount: 7, page: 1, pageSize: 3, totalPages: 3 } };
    };
    const page = await loadRegistrationPage(call, { product: 'tire-protection', page: 1, pageSize: 3, invoiceNumber: 'I', storeNumber: 'S', now: () => NOW });
    assert.deepEqual(calls, ['listTireProtectionRegistrations {"page":1,"pageSize":3,"invoiceNumber":"I","storeNumber":"S"}']);
    assert.deepEqual(
      page.rows.map((r) => r.state),
      ['Not cancelled', 'Cancelled', 'Not cancelled'],
    );
    assert.equal(hasMorePages([page]), true);
    assert.equal(hasMorePages([{ ...page, page: 3 }]), false);
    // The last page read, and the total grew past those shown since the first page: created since (read page 1 again).
    assert.equal(hasMorePages([{ ...page, totalRecordCount: 3, totalPages: 1 }, { ...page, page: 3 }]), true);
  });

  it('motor-club lists have no metadata reads and no filters', async () => {
    const calls: string[] = [];
    const call: ListCall = async (id, _params, o) => {
      calls.push(`${id} ${JSON.stringify(o.query)}`);
      return { body: { results: [{ _id: 'm', invoiceNumber: 'M-1' }], totalRecordCount: 1, page: 1, pageSize: 50, totalPages: 1 } };
    };
    const page = await loadRegistrationPage(call, { product: 'motor-club', page: 1, pageSize: 50, invoiceNumber: 'ignored' });
    assert.deepEqual(calls, ['listMotorClubRegistrations {"page":1,"pageSize":50}']);
    assert.equal(page.rows[0]!.state, 'Active');
    assert.equal(hasMorePages([page]), false);
  });
});
