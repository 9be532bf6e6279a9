// Restricted tier entry (extensionTestsPath): the workbench opened with Workspace Trust on and its folder untrusted
// (test/harness/run-tier.mjs restricted), so the suites see VS Code's Restricted Mode as a person who cloned a
// repository does before trusting it.
import { runSuites } from '../shared/runner';

export function run(): Promise<void> {
  return runSuites(__dirname);
}
