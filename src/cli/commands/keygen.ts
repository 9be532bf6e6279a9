import { parseArgs } from 'node:util';
import { ALG_FOR_CURVE, DEFAULT_CURVE, isCurve } from '../../core/jwt/algorithms';
import { generateKeyMaterial, publicKeyPem } from '../../core/jwt/keys';
import { FileWriteError, pathTaken, writeFiles } from '../../core/connect/writeFiles';
import { CliCommand, UsageError } from '../io';

/**
 * `tpp keygen [--curve P-256|P-384|P-521] --out <prefix> [--force]` (spec: Authentication, item 2): writes
 * `<prefix>.pem` (private key, PKCS#8, file mode 0600) and `<prefix>.pub.pem` (public key, SPKI, the form the
 * administrator asks for). Writes the pair or nothing: refuses to overwrite existing files unless `--force`, and
 * symbolic links, directories and the like always, before writing either; on any failure the old pair is left as it
 * was and the message names the path and why. Never prints the private key.
 */
export const keygenCommand: CliCommand = {
  name: 'keygen',
  usage: 'tpp keygen [--curve P-256|P-384|P-521] --out <prefix> [--force]',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { curve: { type: 'string', default: DEFAULT_CURVE }, out: { type: 'string' }, force: { type: 'boolean', default: false } },
      strict: true,
      allowPositionals: true,
    });
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const curve = values.curve!.toUpperCase();
    if (!isCurve(curve)) throw new UsageError(`--curve must be P-256, P-384 or P-521 (got '${values.curve}')`);
    if (!values.out) throw new UsageError('--out <prefix> is required (writes <prefix>.pem and <prefix>.pub.pem)');
    const privPath = `${values.out}.pem`;
    const pubPath = `${values.out}.pub.pem`;
    // Without --force, every path that is taken is named at once (writeFiles would stop at the first).
    if (!values.force) {
      const taken = [privPath, pubPath].filter((p) => pathTaken(p));
      if (taken.length) {
        io.stderr.write(`tpp keygen: ${taken.map((p) => `${p} already exists`).join(', ')}; nothing was written. Choose another --out or add --force.\n`);
        return 2;
      }
    }
    const key = await generateKeyMaterial(curve);
    try {
      // Both or neither, each atomic and never through a symbolic link: a private key never lands without its public half.
      await writeFiles([{ path: privPath, text: key.pkcs8Pem, mode: 0o600 }, { path: pubPath, text: publicKeyPem(key), mode: 0o644 }], values.force);
    } catch (err) {
      if (!(err instanceof FileWriteError)) throw err;
      io.stderr.write(`tpp keygen: ${err.message}\n`);
      return 2;
    }
    io.stdout.write(
      `Wrote ${privPath} (private key, PKCS#8, mode 0600: keep it secret)\n` +
        `Wrote ${pubPath} (public key, SPKI PEM: send this one to the administrator)\n` +
        `Curve ${curve}, algorithm ${ALG_FOR_CURVE[curve]}, fingerprint SHA256 ${key.fingerprint}\n`,
    );
    return 0;
  },
};
