import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, relative, sep } from 'node:path';
import { PAYLOAD_KIND_NAMES, PAYLOAD_KINDS, type PayloadKind } from '../../../src/core/contract';

// The contract is built lazily per kind (ARCHITECTURE.md, Code map: `lazy.ts`), so that validating one payload file
// does not build every schema. Each schema module of the contract (src/core/contract/v2/*,
// v3/*, errors, answers…) is built when it is first required, so which modules a process has loaded shows which
// schemas it built. Each case runs in a new process: this one has loaded the whole contract already.
const root = join(__dirname, '../../..');
const contractDir = join(root, 'src/core/contract') + sep;

/** The contract modules (paths relative to src/core/contract, without .ts) loaded after `code` ran in a new process. */
function modulesLoadedBy(code: string): string[] {
  const script = `${code}\nprocess.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const r = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], { cwd: root, encoding: 'utf8', timeout: 60000 });
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout) as string[])
    .filter((f) => f.startsWith(contractDir))
    .map((f) => relative(contractDir, f).replace(/\\/g, '/').replace(/\.ts$/, ''))
    .sort();
}

/** The schema modules of a kind's own schema: what validating it may build besides the shared helpers. */
const OWN: Record<PayloadKind, string[]> = {
  'v2-registrations': ['v2/registration'],
  'v2-claims': ['v2/claim'],
  'v2-sales': ['v2/sale'],
  'v2-cancellations': ['v2/cancellation'],
  registration: ['v3/registration'],
  'tire-protection-registration': ['v3/tireProtection'],
  'tire-protection-claim': ['v3/claim'],
  shop: ['v3/shop'],
  'shop-update': ['v3/shopUpdate'],
  part: ['v3/part'],
  transaction: ['v3/transaction'],
  'motor-club-registration': ['v3/motorClub', 'v3/motorClubCustomer'],
  'motor-club-customer': ['v3/motorClubCustomerUpdate', 'v3/motorClubCustomer'],
  cancellation: ['v3/cancellation'],
};
/**
 * Modules that build no schema of a resource: primitives (and their patterns), builders, the kinds, the endpoint table without schemas,
 * and the navigation of schemas already built (schemaWalk, paths, codegen).
 */
const HELPERS = new Set(['codegen', 'patterns', 'paths', 'schemaWalk', 'endpointRows/common', 'endpointRows/motorClub', 'endpointRows/records', 'endpointRows/registrations', 'endpointRows/shops', 'endpoints', 'kindDefs/common', 'kindDefs/v2', 'kindDefs/v3', 'kinds', 'lazy', 'limits', 'primitives', 'types', 'v2/fields', 'v3/build']);

describe('contract: built lazily per kind', function () {
  this.timeout(120000);

  it('loading the kinds and the endpoint table (paths, methods, kinds) builds no schema of any resource', () => {
    const loaded = modulesLoadedBy(`const k = require('./src/core/contract/kinds'); const e = require('./src/core/contract/endpoints');
      k.PAYLOAD_KIND_NAMES.map((n) => k.PAYLOAD_KINDS[n].description + k.PAYLOAD_KINDS[n].title);
      Object.values(e.ENDPOINTS).map((d) => d.method + d.path + Object.keys(d.query).join());`);
    assert.deepEqual(loaded.filter((m) => !HELPERS.has(m)), []);
  });

  for (const kind of PAYLOAD_KIND_NAMES) {
    it(`diagnosing a ${kind} file builds its own schema and no other kind's, no record, no answer, no JSON Schema`, () => {
      const text = JSON.stringify(PAYLOAD_KINDS[kind].template);
      const loaded = modulesLoadedBy(`const { diagnosePayload } = require('./src/core/diagnostics/payload');
        const d = diagnosePayload(${JSON.stringify(text)}, { fileName: 'x.json' });
        if (!d) throw new Error('not diagnosed as a payload file');`);
      assert.deepEqual(loaded.filter((m) => !HELPERS.has(m)), [...OWN[kind]].sort());
    });
  }

  it('reading an endpoint\'s answers builds them then, once (the same schema on every read)', () => {
    const loaded = modulesLoadedBy(`const { ENDPOINTS } = require('./src/core/contract/endpoints');
      const d = ENDPOINTS.getTireProtectionRegistrationMetadata;
      if (d.responses !== d.responses || !d.responses[200] || d.responses[200] !== d.responses[200]) throw new Error('built twice');`);
    assert.ok(loaded.includes('v3/responses') && loaded.includes('errors') && loaded.includes('answers'), loaded.join());
    assert.ok(!loaded.includes('v3/records') && !loaded.some((m) => m.startsWith('v2/') && m !== 'v2/fields'), loaded.join());
  });
});
