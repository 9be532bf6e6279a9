// Mocha runner for suites executed inside the VS Code extension host (host and UI tiers).
// Writes {passed, failed} to $VSCODE_IT_RESULT_FILE for the harness (code-server) and rejects on
// failure or when no test ran (what @vscode/test-electron expects from run()).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function runSuites(dir: string): Promise<void> {
  // TPP_IT_GREP (a regular expression) runs only the matching tests: a quick loop on one suite.
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60000, reporter: 'spec', ...(process.env.TPP_IT_GREP ? { grep: process.env.TPP_IT_GREP } : {}) });
  for (const f of fs.readdirSync(dir).sort()) if (f.endsWith('.test.js')) mocha.addFile(path.join(dir, f));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const passed = runner.stats?.passes ?? 0;
      if (process.env.VSCODE_IT_RESULT_FILE) fs.writeFileSync(process.env.VSCODE_IT_RESULT_FILE, JSON.stringify({ passed, failed: failures }));
      if (failures > 0) reject(new Error(`${failures} tests failed.`));
      else if (passed === 0) reject(new Error('No test ran.'));
      else resolve();
    });
  });
}
