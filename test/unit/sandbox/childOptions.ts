import { join } from 'node:path';

/**
 * How unit tests fork the Local sandbox's child process from source: src/core/sandbox/child.ts under tsx, loading
 * src/core/sandbox/server.ts (the editor forks dist/sandbox-child.js, which loads dist/sandbox.js).
 */
export function childOptions(): { childModule: string; serverModule: string; execArgv: string[] } {
  const dir = join(__dirname, '../../../src/core/sandbox');
  return { childModule: join(dir, 'child.ts'), serverModule: join(dir, 'server.ts'), execArgv: ['--import', 'tsx'] };
}
