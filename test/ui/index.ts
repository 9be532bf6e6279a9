// UI tier entry (extensionTestsPath): suites that read the rendered workbench through the driver.
import { runSuites } from '../shared/runner';

export function run(): Promise<void> {
  return runSuites(__dirname);
}
