import { chmodSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ALG_FOR_CURVE, DEFAULT_CURVE, isCurve } from '../../core/jwt/algorithms';
import { generateKeyMaterial, publicKeyPem } from '../../core/jwt/keys';
import { CliCommand, UsageError } from '../io';

/**
 * `tpp keygen [--curve P-256|P-384|P-521] --out <prefix> [--force]` (spec: Authentication, item 2): writes
 * `<prefix>.pem` (private key, PKCS#8, file mode 0600) and `<prefix>.pub.pem` (public key, SPKI, the form the
 * administrator asks for). Refuses to overwrite existing files unless `--force`. Never prints the private key.
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
    const key = await generateKeyMaterial(curve);
    const flag = values.force ? 'w' : 'wx';
    try {
      writeFileSync(privPath, key.pkcs8Pem, { mode: 0o600, flag });
      chmodSync(privPath, 0o600); // an overwritten file keeps its old mode otherwise
      writeFileSync(pubPath, publicKeyPem(key), { mode: 0o644, flag });
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'EEXIST') io.stderr.write(`tpp keygen: ${privPath} or ${pubPath} already exists; choose another --out or add --force.\n`);
      else io.stderr.write(`tpp keygen: cannot write the key files: ${code ?? (err instanceof Error ? err.message : String(err))}\n`);
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
