// core/exchange/otherClientWrites.ts: which requests logged by the Local sandbox changed the registration lists
// (README, Your application: the program's registration appears in the tree).
import * as assert from 'node:assert/strict';
import type { Exchange } from '../../../src/core/exchange/types';
import { MAX_WRITES_WITH_PARAMS, otherClientWrites } from '../../../src/core/exchange/otherClientWrites';

const BASE = 'http://127.0.0.1:28463/api/v3';
const OWN = ['tire-protection-partner-toolkit', 'tire-protection-partner-toolkit (view)'];

function logged(method: string, path: string, status: number | undefined, userAgent = 'python-requests/2.31'): Exchange {
  return {
    id: `${method}${path}${status}`,
    env: 'local',
    source: 'sandbox-log',
    time: '2026-11-27T09:00:00Z',
    request: { method, url: `${BASE}${path}`, headers: { 'user-agent': userAgent } },
    ...(status !== undefined ? { response: { status } } : {}),
    durationMs: 1,
    attempts: 1,
  };
}

describe('writes of other clients on the Local sandbox', () => {
  it("reports a program's created registration, and a claim or cancellation with the registration's id", () => {
    const writes = otherClientWrites(
      [logged('POST', '/tire-protection/registrations', 201), logged('POST', '/tire-protection/registrations/r1/claims', 201), logged('PATCH', '/tire-protection/registrations/r2', 204)],
      OWN,
    );
    assert.deepEqual(writes, [
      { endpointId: 'createTireProtectionRegistration' },
      { endpointId: 'createTireProtectionClaim', params: { id: 'r1' } },
      { endpointId: 'cancelTireProtectionRegistration', params: { id: 'r2' } },
    ]);
  });

  it("leaves out reads, refused or unanswered requests, unknown paths and the editor's own requests", () => {
    const writes = otherClientWrites(
      [
        logged('GET', '/tire-protection/registrations', 200),
        logged('POST', '/tire-protection/registrations', 401),
        logged('POST', '/tire-protection/registrations', 409),
        logged('POST', '/tire-protection/registrations', undefined),
        logged('POST', '/nothing/here', 201),
        logged('POST', '/tire-protection/registrations', 201, OWN[0]),
        logged('PATCH', '/tire-protection/registrations/r2', 204, OWN[1]),
      ],
      OWN,
    );
    assert.deepEqual(writes, []);
  });

  it('reports each write once, and past the cap one entry per endpoint without ids (a backfill)', () => {
    const same = otherClientWrites([logged('POST', '/tire-protection/registrations', 201), logged('POST', '/tire-protection/registrations', 201)], OWN);
    assert.deepEqual(same, [{ endpointId: 'createTireProtectionRegistration' }]);
    const many = Array.from({ length: MAX_WRITES_WITH_PARAMS * 50 }, (_, i) => logged('POST', `/tire-protection/registrations/r${i}/claims`, 201));
    assert.deepEqual(otherClientWrites([...many, logged('POST', '/tire-protection/registrations', 201)], OWN), [{ endpointId: 'createTireProtectionClaim' }, { endpointId: 'createTireProtectionRegistration' }]);
  });
});
