import { strict as assert } from 'node:assert';
import { ENDPOINTS } from '../../../src/core/contract/endpoints';
import { contractDrift, contractDriftOf } from '../../../src/core/exchange/contractDrift';

/**
 * The remembered drift check of tpp proxy (spec: Endpoints, GET /verify-token answers 200 with partner_id and name):
 * remembering an answer never changes what is said about it, whatever came before.
 */
describe('tpp proxy: the drift check of repeated answers', () => {
  const group = [ENDPOINTS.verifyToken];
  const good = JSON.stringify({ partner_id: 'P1001', name: 'Acme' });
  const drifted = JSON.stringify({ partner: 'P1001' });

  it('says the same as the full check, for answers seen before and answers that differ only slightly', () => {
    const cases: [number, string | undefined][] = [[200, good], [200, drifted], [200, good], [200, drifted], [418, good], [200, undefined], [200, ''], [200, `${good} `]];
    for (const [status, body] of cases) {
      assert.deepEqual(contractDriftOf(group, status, body), contractDrift(group, status, body), `${status} ${JSON.stringify(body)}`);
    }
    assert.deepEqual(contractDriftOf(group, 200, good), []);
    assert.equal(contractDriftOf(group, 200, drifted)[0]?.rule, 'contract-drift');
    assert.equal(contractDriftOf(group, 418, good)[0]?.rule, 'contract-drift');
  });

  it('a thousand different answers are each checked, and drift is still seen after them', () => {
    for (let i = 0; i < 1000; i++) assert.deepEqual(contractDriftOf(group, 200, JSON.stringify({ partner_id: `P${i}`, name: 'Acme' })), []);
    assert.equal(contractDriftOf(group, 200, drifted)[0]?.rule, 'contract-drift');
  });
});
