// Benchmark entry (extensionTestsPath) for `npm run bench:activation`: activates the extension in a
// freshly loaded window and writes the timings to $TPP_BENCH_OUT. Not a test: no assertions on time.
import * as fs from 'node:fs';
import { activateExtension } from '../shared/extension';

export async function run(): Promise<void> {
  const started = performance.now();
  const api = await activateExtension();
  const endToEnd = performance.now() - started;
  // The heavy core (dist/core.js) must not be needed to activate: it loads on first use.
  const coreLoaded = Object.keys(require.cache).some((f) => /[\\/]dist[\\/]core\.js$/.test(f));
  if (process.env.TPP_BENCH_OUT) fs.writeFileSync(process.env.TPP_BENCH_OUT, JSON.stringify({ activationMs: api.activationMs, loadAndActivateMs: endToEnd, coreLoaded }));
  if (process.env.VSCODE_IT_RESULT_FILE) fs.writeFileSync(process.env.VSCODE_IT_RESULT_FILE, JSON.stringify({ passed: 1, failed: 0 }));
}
