import { isAbsolute, relative, resolve, sep } from 'node:path';
import { ENVIRONMENTS, type EnvironmentId } from '../environments';
import { SAMPLE_ENV } from '../samples/env';
import { insideRealPath } from './files';

/**
 * What Connect Your Application… and `tpp connect` give an application: the variables every code sample reads
 * (../samples/request.ts SAMPLE_ENV; spec: Base addresses, Authentication) as a dotenv file, and one line per language
 * on loading it. No editor and no prompt: the editor and the CLI supply the values and choose where the text goes.
 */

/** The values of one environment for an application. */
export interface ConnectionValues {
  readonly env: EnvironmentId;
  /** The v3 base address, ending in /api/v3 (also the v3 JWT `aud`). */
  readonly v3BaseUrl: string;
  /** The v2 host ({legacy_base_url}; the v2 JWT `aud`), when the environment has one. */
  readonly v2BaseUrl?: string;
  /** The Partner ID (JWT `iss`). */
  readonly partnerId: string;
  /** Path of the PKCS#8 PEM private key the application signs with. */
  readonly privateKeyFile: string;
}

/** Thrown for a value that cannot be written as a dotenv line (the message says which and why). */
export class ConnectError extends Error {
  override readonly name = 'ConnectError';
}

/**
 * A dotenv value that every loader (a POSIX shell's `.`, Node's --env-file, python-dotenv, DotNetEnv, godotenv,
 * phpdotenv) reads as the same text: bare when plain, else in single quotes (literal everywhere), else in double
 * quotes when it has no `"`, `\` or `$` (which the loaders treat differently). Throws {@link ConnectError} on a line
 * break or on a value with both a `'` and one of those.
 */
export function dotenvValue(name: string, value: string): string {
  if (/[\r\n\0]/.test(value)) throw new ConnectError(`${name} cannot hold a line break.`);
  if (/^[\w@%+=:,./~-]*$/.test(value)) return value;
  if (!value.includes("'")) return `'${value}'`;
  if (!/["\\$`]/.test(value)) return `"${value}"`;
  throw new ConnectError(`${name} (${value}) has both a ' and one of " \\ $ \`, which dotenv loaders read differently: choose a file name without them.`);
}

/**
 * The dotenv text: a header naming the environment, then TPP_BASE_URL, TPP_V2_BASE_URL (when known), TPP_PARTNER_ID,
 * TPP_PRIVATE_KEY_FILE, and TPP_AUDIENCE / TPP_V2_AUDIENCE as comments (set them when the base address is a local
 * proxy in front of the real one). With `loadAs` (the file's name as the application refers to it), comment lines
 * say how each language loads it, so that the file explains itself. Throws {@link ConnectError} on an empty
 * required value or a line break.
 */
export function dotenvText(v: ConnectionValues, loadAs?: string): string {
  const label = ENVIRONMENTS[v.env].label;
  const required: [string, string][] = [
    [SAMPLE_ENV.baseUrl, v.v3BaseUrl],
    [SAMPLE_ENV.partnerId, v.partnerId],
    [SAMPLE_ENV.privateKeyFile, v.privateKeyFile],
  ];
  for (const [name, value] of required) if (!value.trim()) throw new ConnectError(`${name} is empty: ${label} has no ${describe(name)} yet.`);
  const line = (name: string, value: string) => `${name}=${dotenvValue(name, value)}`;
  return [
    `# Tire Protection partner API: ${label}. Read by the code samples of Copy as Code and \`tpp code\`.`,
    '# No secret in this file: the private key stays in the file TPP_PRIVATE_KEY_FILE names.',
    // The code of each language follows its colon: a line copied whole stays a comment.
    ...(loadAs ? ['# Load it before your program reads TPP_BASE_URL, with the code after your language\'s colon below', '# (in VS Code, Write Program… writes a Python or Node.js program that loads this file itself):', ...loadLines(loadAs).map((l) => `#   ${l.language}: ${l.line}`)] : []),
    line(SAMPLE_ENV.baseUrl, v.v3BaseUrl),
    ...(v.v2BaseUrl ? [line(SAMPLE_ENV.v2BaseUrl, v.v2BaseUrl)] : []),
    line(SAMPLE_ENV.partnerId, v.partnerId),
    line(SAMPLE_ENV.privateKeyFile, v.privateKeyFile),
    `# When TPP_BASE_URL is a local proxy in front of ${label}, sign for the real address (the JWT aud):`,
    `# ${SAMPLE_ENV.audience}=${dotenvValue(SAMPLE_ENV.audience, v.v3BaseUrl)}`,
    ...(v.v2BaseUrl ? [`# ${SAMPLE_ENV.v2Audience}=${dotenvValue(SAMPLE_ENV.v2Audience, v.v2BaseUrl)}`] : []),
    '',
  ].join('\n');
}

function describe(name: string): string {
  return name === SAMPLE_ENV.baseUrl ? 'base address' : name === SAMPLE_ENV.partnerId ? 'Partner ID' : 'private key file';
}

/** One line per language of the code samples on loading the dotenv file `file` (as the application refers to it). */
export function loadLines(file: string): readonly { readonly language: string; readonly line: string }[] {
  const q = JSON.stringify(file);
  return [
    { language: 'Shell / curl / Java', line: `set -a; . ${shellPath(file)}; set +a   # then run the program from this shell` },
    { language: 'Node.js 20.6+', line: `node --env-file=${shellPath(file)} app.js` },
    { language: 'Python', line: `from dotenv import load_dotenv; load_dotenv(${q})   # pip install python-dotenv` },
    // The same without a package: the file's values are bare or quoted whole (dotenvValue), so a split at the first
    // "=" and the quotes taken off read them as python-dotenv does; variables already set win, as there.
    { language: 'Python (standard library)', line: `import os; [os.environ.setdefault(k, v[1:-1] if v[:1] in "'\\"" else v) for k, _, v in (l.strip().partition("=") for l in open(${q})) if k and not k.startswith("#")]` },
    { language: 'C#', line: `DotNetEnv.Env.Load(${q});   // dotnet add package DotNetEnv` },
    { language: 'Go', line: `godotenv.Load(${q}) // go get github.com/joho/godotenv` },
    { language: 'PHP', line: `Dotenv\\Dotenv::createUnsafeImmutable(__DIR__, ${q})->load(); // composer require vlucas/phpdotenv` },
  ];
}

function shellPath(file: string): string {
  const p = isAbsolute(file) || file.startsWith('.') ? file : `./${file}`;
  return /^[\w@%+=:,./~-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}

/** Default dotenv file name of an environment, e.g. `tpp-local.env`. */
export function defaultDotenvName(env: EnvironmentId): string {
  return `tpp-${env}.env`;
}

/** Default name of the private key file written for an application, beside its dotenv file, e.g. `tpp-local-key.pem`. */
export function defaultKeyFileName(env: EnvironmentId): string {
  return `tpp-${env}-key.pem`;
}

/** Why `file` may not receive the dotenv text: it is outside every folder of `roots` (undefined when inside one). */
export function outsideWorkspaceProblem(file: string, roots: readonly string[]): string | undefined {
  if (!roots.length) return 'Open a folder first: the dotenv file is written into the workspace (or choose "Copy to Clipboard").';
  const inside = roots.some((root) => {
    const rel = relative(resolve(root), resolve(file));
    // The folder named inside may be a link to elsewhere: its real path must be inside too.
    return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel) && insideRealPath(resolve(file), resolve(root));
  });
  return inside ? undefined : `${file} is outside the workspace: choose a path inside ${roots.length === 1 ? roots[0] : 'one of its folders'} (or "Copy to Clipboard").`;
}
