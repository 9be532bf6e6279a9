import { runCli } from './cli';
import { enableCompileCache, saveCompileCache } from './compileCache';
import { dieWithLauncher, isDataRun, runInRunner, runsHere } from './runnerProcess';

// V8's compiled code of the command bundles is kept between runs (compileCache.ts): Node's own cache where it has
// one (22.1+), else the cached data the build's loader of each command bundle reads, written here once the
// command has run.
enableCompileCache();

// process.stdout and process.stderr are made on their first use (each costs a few ms on a pipe): a clean
// `tpp validate` writes to stderr only.
const io = { stdout: { write: (chunk: string) => process.stdout.write(chunk) }, stderr: { write: (chunk: string) => process.stderr.write(chunk) } };

const argv = process.argv.slice(2);
const script = process.argv[1];

/** Runs the command in this process. */
function runHere(): Promise<number> {
  dieWithLauncher(argv);
  return runCli(argv, io).then((code) => {
    saveCompileCache();
    return code;
  });
}

// A backfill sends its rows from a process with a smaller young generation (runnerProcess.ts); should that process
// not start, the rows are sent from this one.
(script !== undefined && !runsHere() && isDataRun(argv) ? runInRunner(argv, script).catch(runHere) : runHere()).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`tpp: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
