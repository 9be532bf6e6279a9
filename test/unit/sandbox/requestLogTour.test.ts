import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RequestLogEntry } from '../../../src/core/requestLog/requestLog';
import { startWith } from './helpers';
import { eventually } from '../eventually';

/**
 * The deliberate-mistakes tour: examples/mistakes/send-mistakes.mjs, run as an integrator's
 * application (its own process, its own node:crypto tokens), sends three broken requests; the sandbox's request log
 * names each mistake.
 */
describe('Deliberate-mistakes tour script', () => {
  it('sends millisecond iat, trailing-slash aud and a 3-decimal money value, each diagnosed by the log', async function () {
    this.timeout(60_000);
    const { sb, clients } = await startWith({ requestLog: {} });
    const dir = mkdtempSync(join(tmpdir(), 'tpp-tour-test-'));
    try {
      const keyFile = join(dir, 'key.pem');
      writeFileSync(keyFile, clients[0]!.key.privateKey.export({ type: 'pkcs8', format: 'pem' }));
      const entries: RequestLogEntry[] = [];
      sb.requestLog?.subscribe((e) => entries.push(e));
      const script = join(__dirname, '../../../examples/mistakes/send-mistakes.mjs');
      const env = { ...process.env, TPP_BASE_URL: sb.v3BaseUrl, TPP_PARTNER_ID: 'P1001', TPP_PRIVATE_KEY_FILE: keyFile, TPP_V2_COMPANY_NAME: 'partner1' };
      const { stdout } = await promisify(execFile)(process.execPath, [script], { env });
      assert.match(stdout, /-> 401/);
      await eventually(() => entries.length >= 3);
      // Entries are published in the order the answers were sent, whatever order their diagnoses finish in.
      assert.deepEqual(entries.map((e) => e.status), [401, 401, 400]);
      assert.deepEqual(entries.map((e) => e.diagnosis.map((d) => d.rule)), [['iat'], ['aud'], ['Registrations[0].TirePrice']]);
      assert.match(entries[0]?.diagnosis[0]?.message ?? '', /milliseconds/);
      assert.match(entries[1]?.diagnosis[0]?.message ?? '', /trailing slash/i);
      assert.equal(entries[2]?.diagnosis[0]?.code, 'money');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await sb.close();
    }
  });
});
