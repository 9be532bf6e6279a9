import { unpackTemplateFile } from './template';

/**
 * dist/sandbox-unpack.js: unpacks the template of a new embedded cluster in a short-lived process of its own, so
 * that the sandbox's serving process does not keep what gzip and tar allocated (./template.ts, unpackTemplateFile).
 *   node dist/sandbox-unpack.js <template.tar.gz> <cluster directory>
 * Exit 0 once the cluster is in place; 1 with the reason on stderr (a damaged tarball, a full disk); 2 on a usage error.
 */
const [file, pgdata] = process.argv.slice(2);
if (!file || !pgdata) {
  process.stderr.write('usage: sandbox-unpack <template.tar.gz> <cluster directory>\n');
  process.exit(2);
}
// scriptDir: none, so that this process unpacks it itself.
unpackTemplateFile(file, pgdata, '').then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  },
);
