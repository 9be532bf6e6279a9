import { UsageError } from './io';

/**
 * Flags shared by the commands that call a partner API (`tpp send`, `tpp run`; docs/sending.md, `tpp send`): the
 * `--var name=value` pairs, and the address, Partner ID and key each takes from a flag or its `TPP_*` variable.
 */

/** The `parseArgs` options of those flags: addresses, Partner ID, key, eligibility token and `--var`. */
export const PARTNER_OPTIONS = {
  'base-url': { type: 'string' },
  iss: { type: 'string' },
  key: { type: 'string' },
  'v2-base-url': { type: 'string' },
  'eligibility-base-url': { type: 'string' },
  'eligibility-token': { type: 'string' },
  var: { type: 'string', multiple: true, default: [] as string[] },
} as const;

/**
 * The `--var name=value` pairs as an object (a later pair of the same name wins).
 * @throws UsageError for a pair without `=` or without a name.
 */
export function varsOf(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new UsageError(`--var expects name=value, not '${v}'`);
    out[v.slice(0, eq)] = v.slice(eq + 1);
  }
  return out;
}

/**
 * The version 3 base address, Partner ID and private key file: each from its flag, else `TPP_BASE_URL`,
 * `TPP_PARTNER_ID`, `TPP_PRIVATE_KEY_FILE`.
 * @throws UsageError naming every one that is missing.
 */
export function partnerFlags(flags: { readonly baseUrl?: string; readonly iss?: string; readonly key?: string }, env: NodeJS.ProcessEnv): { baseUrl: string; iss: string; keyFile: string } {
  const baseUrl = flags.baseUrl ?? env.TPP_BASE_URL;
  const iss = flags.iss ?? env.TPP_PARTNER_ID;
  const keyFile = flags.key ?? env.TPP_PRIVATE_KEY_FILE;
  const missing = [!baseUrl && '--base-url (or TPP_BASE_URL)', !iss && '--iss (or TPP_PARTNER_ID)', !keyFile && '--key (or TPP_PRIVATE_KEY_FILE)'].filter(Boolean);
  if (missing.length || !baseUrl || !iss || !keyFile) throw new UsageError(`missing ${missing.join(', ')}`);
  return { baseUrl, iss, keyFile };
}
