import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Where the tests find the interface description: `../shared/spec/partner-interface.md` relative to the
 * repository root (the layout of every checkout of this project), or the file named by `TPP_SPEC`.
 */
export const REPO_ROOT = resolve(__dirname, '..', '..');
export const SPEC_PATH = process.env.TPP_SPEC ? resolve(process.env.TPP_SPEC) : join(REPO_ROOT, '..', 'shared', 'spec', 'partner-interface.md');

/**
 * Skips the calling mocha test or hook when the spec is not there, printing why (a skip is never silent).
 * Returns true when the spec is there.
 */
export function requireSpec(ctx: Mocha.Context): boolean {
  if (existsSync(SPEC_PATH)) return true;
  console.log(`      skipped: the interface description is not at ${SPEC_PATH} (../shared/spec/partner-interface.md beside the repository, or set TPP_SPEC)`);
  ctx.skip();
  return false;
}
