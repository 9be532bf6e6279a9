import { runCli } from './cli';
import { enableCompileCache, saveCompileCache } from './compileCache';

// V8's compiled code of the command bundles is kept between runs (compileCache.ts): Node's own cache where it has
// one (22.1+), else the cached data the build's loader of each command bundle reads, written here once the
// command has run.
enableCompileCache();

runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
    saveCompileCache();
  },
  (err: unknown) => {
    process.stderr.write(`tpp: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
