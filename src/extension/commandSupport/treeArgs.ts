import { isEnvironmentId, type EnvironmentId } from '../../core/environments';
import type { Exchange } from '../../core/exchange/types';
import type { HistoryEntry } from '../../core/history/history';
import type { RegistrationProduct } from '../../core/listing/registrationPages';

type Fields = Readonly<Record<string, unknown>>;

/**
 * What a command receives as its first argument from a row: a node of the Environments view (src/extension/tree),
 * an exchange of the Integration Log or the response view, or an options object of the same fields (tests, other
 * commands). `env` is the environment the row belongs to, when it names one.
 */
export type TreeArg =
  /** An environment row or one of its key rows (`status.info.id`). */
  | { readonly node: 'environment'; readonly env: EnvironmentId; readonly label?: string; readonly status: Fields }
  /** A tire-protection or motor-club registration row; `record` is the listed record. */
  | { readonly node: 'registration' | 'motorClub'; readonly env?: EnvironmentId; readonly id?: string; readonly invoiceNumber?: string; readonly record?: Fields }
  /** A claim under its registration. */
  | { readonly node: 'claim'; readonly env?: EnvironmentId; readonly id?: string; readonly record: Fields }
  /** A Request history row. */
  | { readonly node: 'history'; readonly env?: EnvironmentId; readonly id?: string; readonly entry: HistoryEntry }
  /** An exchange (Integration Log row), or a row holding one (`{ exchange }`: the response view). */
  | { readonly node: 'exchange'; readonly env?: EnvironmentId; readonly id?: string; readonly exchange: Exchange }
  /** An address row (the Local sandbox's base addresses). */
  | { readonly node: 'address'; readonly env?: EnvironmentId; readonly url: string }
  /** Any other row or options object: folders and Load more (`product`), the Partner ID row (`id`), `{ id }`, `{ invoiceNumber, storeNumber }`. */
  | {
      readonly node: 'row';
      readonly env?: EnvironmentId;
      readonly id?: string;
      readonly invoiceNumber?: string;
      readonly storeNumber?: string;
      readonly product?: RegistrationProduct;
    };

const fieldsOf = (v: unknown): Fields | undefined => (v && typeof v === 'object' ? (v as Fields) : undefined);
function textOf(o: Fields, name: string): string | undefined {
  const v = o[name];
  return typeof v === 'string' && v ? v : undefined;
}

function isExchange(v: Fields | undefined): v is Fields & Exchange {
  const request = fieldsOf(v?.request);
  return typeof request?.method === 'string' && typeof request.url === 'string';
}

/**
 * The one decoder of a command's row argument. Reads the fields the node classes expose (`kind`, `env`, `id`,
 * `invoiceNumber`, `row`, `record`, `entry`, `status`, `url`, `product`) rather than testing their classes: the nodes
 * are made in dist/extension.js and the commands run in dist/commands.js, which holds its own copies of the classes.
 * Resolves to `undefined` for anything that is not an object (an environment id, a URI's string, nothing).
 */
export function treeArgOf(arg: unknown): TreeArg | undefined {
  const a = fieldsOf(arg);
  if (!a) return undefined;
  const env = isEnvironmentId(a.env) ? a.env : undefined;
  const id = textOf(a, 'id');
  if (a.kind === 'registration' || a.kind === 'motorClub') return { node: a.kind, env, id, invoiceNumber: textOf(a, 'invoiceNumber'), record: fieldsOf(fieldsOf(a.row)?.record) };
  if (a.kind === 'claim') return { node: 'claim', env, id, record: fieldsOf(a.record) ?? {} };
  const entry = fieldsOf(a.entry);
  if (a.kind === 'history' && entry) return { node: 'history', env, id, entry: entry as unknown as HistoryEntry };
  const status = fieldsOf(a.status);
  const info = fieldsOf(status?.info);
  if (status && info && isEnvironmentId(info.id)) return { node: 'environment', env: env ?? info.id, label: textOf(info, 'label'), status };
  if (isExchange(a)) return { node: 'exchange', env, id, exchange: a };
  const inner = fieldsOf(a.exchange);
  if (isExchange(inner)) return { node: 'exchange', env, id, exchange: inner };
  const url = textOf(a, 'url');
  if (url) return { node: 'address', env, url };
  const product = a.product === 'motor-club' || a.product === 'tire-protection' ? a.product : undefined;
  return { node: 'row', env, id, invoiceNumber: textOf(a, 'invoiceNumber'), storeNumber: textOf(a, 'storeNumber'), product };
}

/** The environment an argument names: an environment id, or the row's environment. */
export function envOf(arg: unknown): EnvironmentId | undefined {
  return isEnvironmentId(arg) ? arg : treeArgOf(arg)?.env;
}

/** A registration chosen by the user or given by a command argument. */
export interface RegistrationRef {
  readonly id?: string;
  readonly invoiceNumber?: string;
  readonly storeNumber?: string;
}

/** The registration a row or an options object names (`{ id }`, `{ invoiceNumber, storeNumber }`); claims and history rows name none. */
export function registrationRefOf(arg: unknown): RegistrationRef | undefined {
  const t = treeArgOf(arg);
  if (t?.node !== 'registration' && t?.node !== 'motorClub' && t?.node !== 'row') return undefined;
  const storeNumber = t.node === 'row' ? t.storeNumber : undefined;
  if (!t.id && !t.invoiceNumber) return undefined;
  return { ...(t.id ? { id: t.id } : {}), ...(t.invoiceNumber ? { invoiceNumber: t.invoiceNumber } : {}), ...(storeNumber ? { storeNumber } : {}) };
}

/**
 * The product of a registration-list command when one is named: the row's `product` (a folder, Load more), else the
 * second argument (`'motor-club'`, any other text is tire protection); `undefined` when neither names one.
 */
export function listProductOf(arg: unknown, second: unknown): RegistrationProduct | undefined {
  const t = treeArgOf(arg);
  const fromRow = t?.node === 'row' ? t.product : undefined;
  if (fromRow) return fromRow;
  return typeof second === 'string' ? (second === 'motor-club' ? 'motor-club' : 'tire-protection') : undefined;
}

/** The product of a registration-list command ({@link listProductOf}); tire protection by default. */
export function productOf(arg: unknown, second: unknown): RegistrationProduct {
  return listProductOf(arg, second) ?? 'tire-protection';
}
