import { runCli } from './cli';

runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`tpp: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
