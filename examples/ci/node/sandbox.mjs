// Test fixture: a Local sandbox started by the suite itself (`tpp sandbox`), waited for through the control API's
// health, and its control API (/__tpp/...). `tpp` must be on PATH (npm install -g ./tpp-cli-<version>.tgz).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PartnerClient } from './partner-client.mjs';

export const PARTNER_ID = 'CI-PARTNER';

export async function startSandbox() {
  const dir = mkdtempSync(join(tmpdir(), 'tpp-ci-'));
  const prefix = join(dir, 'partner');
  execFileSync('tpp', ['keygen', '--curve', 'P-256', '--out', prefix], { stdio: 'ignore' });
  const child = spawn('tpp', ['sandbox', '--port', '0', '--partner', `${PARTNER_ID}=${prefix}.pub.pem`], { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // The first line on stdout is the v3 base address.
  const baseUrl = await Promise.race([
    new Promise((resolve) => createInterface({ input: child.stdout }).once('line', (l) => resolve(l.trim()))),
    exited.then((code) => Promise.reject(new Error(`tpp sandbox exited ${code}`))),
  ]);
  const sandbox = new Sandbox(baseUrl, readFileSync(`${prefix}.pem`, 'utf8'), async () => {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  });
  const deadline = Date.now() + 30_000;
  // Health answers 503 "starting" (with Retry-After) until the sandbox is ready.
  while ((await fetch(`${sandbox.origin}/__tpp/health`)).status !== 200) {
    if (Date.now() > deadline) throw new Error('the sandbox did not become ready');
    await new Promise((r) => setTimeout(r, 100));
  }
  return sandbox;
}

class Sandbox {
  constructor(baseUrl, privateKeyPem, stop) {
    this.baseUrl = baseUrl; // {sandbox_url}: origin + /api/v3 (the JWT aud)
    this.origin = baseUrl.replace(/\/api\/v3$/, '');
    this.privateKeyPem = privateKeyPem;
    this.offsetMs = 0;
    this.stop = stop;
  }

  /** Calls the control API and resolves with its JSON answer; rejects on an error status. */
  async control(method, path, body) {
    // Every control POST says it is JSON, also without a body (the sandbox refuses what a web page could send).
    const res = await fetch(`${this.origin}/__tpp/${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = await res.json();
    if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${json.message}`);
    return json;
  }

  /** Records, journal and faults gone, clock back to real time, partners kept. */
  async reset() {
    await this.control('POST', 'reset');
    this.offsetMs = 0;
  }

  /** The application under test, with the sandbox's time as its clock. */
  client(options = {}) {
    return new PartnerClient({ baseUrl: this.baseUrl, partnerId: PARTNER_ID, privateKeyPem: this.privateKeyPem, clock: () => Date.now() + this.offsetMs, ...options });
  }
}
