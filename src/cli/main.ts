import { runCli } from './cli';

// Cache V8's compiled code of the command bundles between runs where Node has it built in (22.1+). Node 20 has
// no such API; the v8-compile-cache library was tried there and dropped: its vm.Script compile has no dynamic
// import() callback, which PGlite (tpp sandbox) needs, and it saved little once the bundles were split.
const nodeModule = require('node:module') as { enableCompileCache?: () => unknown };
if (typeof nodeModule.enableCompileCache === 'function') nodeModule.enableCompileCache();

runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`tpp: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
