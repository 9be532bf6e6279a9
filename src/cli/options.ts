import { readFileSync } from 'node:fs';
import { UsageError } from './io';

/** Option parsing shared by the long-running commands (`tpp sandbox`, `tpp proxy`). */

/** The number of option `--name`, or undefined when absent. Throws UsageError outside [min, max] or not an integer when asked. */
export function number(name: string, value: string | undefined, min: number, max: number, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new UsageError(`--${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, not '${value}'`);
  }
  return n;
}

/** Parses `--partner id=path` values into Partner ID and PEM text. Throws UsageError on a bad value or unreadable file. */
export function partnersOf(values: readonly string[]): { id: string; name?: string; spkiPem: string }[] {
  return values.map((v) => {
    const eq = v.indexOf('=');
    if (eq <= 0 || eq === v.length - 1) throw new UsageError(`--partner expects <id>[:<company_name>]=<spki.pem>, not '${v}'`);
    const who = v.slice(0, eq);
    const colon = who.indexOf(':');
    const id = colon < 0 ? who : who.slice(0, colon);
    const name = colon < 0 ? undefined : who.slice(colon + 1);
    if (!id || name === '') throw new UsageError(`--partner expects <id>[:<company_name>]=<spki.pem>, not '${v}'`);
    const file = v.slice(eq + 1);
    let pem: string;
    try {
      pem = readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read the public key of partner ${id} from ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    if (/PRIVATE KEY/.test(pem)) throw new UsageError(`${file} holds a private key; give the partner's public key (SPKI PEM)`);
    return { id, name, spkiPem: pem };
  });
}

/** Resolves when SIGINT or SIGTERM arrives (or `signal` aborts). */
export function waitForStop(signal?: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const done = (why: string) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(why);
    };
    const onInt = () => done('SIGINT');
    const onTerm = () => done('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    signal?.addEventListener('abort', () => done('abort'), { once: true });
  });
}

