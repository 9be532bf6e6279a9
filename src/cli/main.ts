import { runCli } from './cli';
import { enableCompileCache, saveCompileCache } from './compileCache';

// V8's compiled code of the command bundles is kept between runs (compileCache.ts): Node's own cache where it has
// one (22.1+), else the cached data the build's loader of each command bundle reads, written here once the
// command has run.
enableCompileCache();

// process.stdout and process.stderr are made on their first use (each costs a few ms on a pipe): a clean
// `tpp validate` writes to stderr only.
const io = { stdout: { write: (chunk: string) => process.stdout.write(chunk) }, stderr: { write: (chunk: string) => process.stderr.write(chunk) } };

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
    saveCompileCache();
  },
  (err: unknown) => {
    process.stderr.write(`tpp: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
