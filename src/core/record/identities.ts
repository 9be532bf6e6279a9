import type { EndpointId } from '../contract/types';

/**
 * Which values of a recorded story a flow must not write as they were (docs/flows.md, Recording a flow), in the
 * spec's own field names (../shared/spec/partner-interface.md):
 *
 * - **Identifiers an answer gives**, which a later request may carry: the `id` of a create's answer, the `_id` of a
 *   read, version 2's `RegistrationID` and `ClaimID`, and the invoice numbers of records an answer lists. A later
 *   request that carries one of these values (found by value) reads it from that answer instead.
 * - **Values a create defines that are unique per partner** (spec: Registrations are unique by invoice number; a
 *   shop's uniqueId; version 2's identities, where a resend updates the first record): written as they were, a second
 *   run would meet a 409 or change the first run's records, so each becomes a variable made new on every run.
 */

/** Keys of answer properties whose value identifies a record (spec: Endpoints, the answers of creates and reads). */
const ANSWER_IDENTIFIER_KEYS: ReadonlySet<string> = new Set(['id', '_id', 'RegistrationID', 'ClaimID', 'invoiceNumber', 'InvoiceNumber', 'serviceInvoiceNumber', 'RepairInvoiceNumber', 'CancelInvoiceNumber']);

/** Shortest identifier taken from an answer: shorter values (a state, a count) match by chance, not by origin. */
const MIN_IDENTIFIER_LENGTH = 4;

/** Whether an answer's value under `key` is an identifier a later request may carry. */
export function isAnswerIdentifier(key: string | number | undefined, value: unknown): value is string {
  return typeof key === 'string' && ANSWER_IDENTIFIER_KEYS.has(key) && typeof value === 'string' && value.length >= MIN_IDENTIFIER_LENGTH;
}

/** A variable made new on every run: its name stem and the default start of its value. */
export interface RunValueKind {
  readonly stem: string;
  readonly prefix: string;
}

const INVOICE: RunValueKind = { stem: 'invoice', prefix: 'REC' };
const SERVICE_INVOICE: RunValueKind = { stem: 'serviceInvoice', prefix: 'RO' };
const REPAIR_INVOICE: RunValueKind = { stem: 'repairInvoice', prefix: 'RO' };
const CANCEL_INVOICE: RunValueKind = { stem: 'cancelInvoice', prefix: 'CXL' };
const SALE_INVOICE: RunValueKind = { stem: 'saleInvoice', prefix: 'SALE' };
const SHOP: RunValueKind = { stem: 'shopId', prefix: 'SHOP' };

/**
 * The body fields each create defines, as paths from the body (`*` = every item of an array): the invoice number of a
 * registration (v3, the earlier revision, motor club), a claim's service invoice, a shop's uniqueId, and version 2's
 * Registrations/Sales InvoiceNumber, Claims RepairInvoiceNumber and Cancellations CancelInvoiceNumber (their
 * InvoiceNumber names the registration they are for: an earlier value, not a new one).
 */
const DEFINED_BY: Partial<Record<EndpointId, readonly { readonly path: readonly string[]; readonly kind: RunValueKind }[]>> = {
  createTireProtectionRegistration: [{ path: ['invoiceNumber'], kind: INVOICE }],
  createRegistration: [{ path: ['invoiceNumber'], kind: INVOICE }],
  createMotorClubRegistration: [{ path: ['invoiceNumber'], kind: INVOICE }],
  createTireProtectionClaim: [{ path: ['serviceInvoiceNumber'], kind: SERVICE_INVOICE }],
  createShop: [{ path: ['uniqueId'], kind: SHOP }],
  v2PostRecords: [
    { path: ['Registrations', '*', 'InvoiceNumber'], kind: INVOICE },
    { path: ['Sales', '*', 'InvoiceNumber'], kind: SALE_INVOICE },
    { path: ['Claims', '*', 'RepairInvoiceNumber'], kind: REPAIR_INVOICE },
    { path: ['Cancellations', '*', 'CancelInvoiceNumber'], kind: CANCEL_INVOICE },
  ],
};

/** The kind of run value a body field at `path` of a request to `endpoint` defines, if it defines one. */
export function definedValueKind(endpoint: EndpointId | undefined, path: readonly (string | number)[]): RunValueKind | undefined {
  const rows = endpoint ? DEFINED_BY[endpoint] : undefined;
  if (!rows) return undefined;
  return rows.find((r) => r.path.length === path.length && r.path.every((seg, i) => seg === '*' ? typeof path[i] === 'number' : seg === path[i]))?.kind;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** A date (`YYYY-MM-DD`) or an ISO 8601 time with its zone, as the spec writes dates ("ISO 8601 strings"). */
export function dateKindOf(value: string): 'date' | 'datetime' | undefined {
  if (DATE_RE.test(value)) return Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? undefined : 'date';
  if (DATETIME_RE.test(value)) return Number.isNaN(Date.parse(value)) ? undefined : 'datetime';
  return undefined;
}

const DAY_MS = 86_400_000;

/**
 * The dynamic value that gives, on the day a flow runs, what `value` was on the day `sentAt` (ISO 8601) was sent:
 * `{{$date -3}}` for a date three days before, `{{$datetime iso8601 2 h}}` for a time two hours after. A time
 * less than half a minute from the request is the time of the run. Offsets in whole minutes, hours or days.
 */
export function relativeDate(value: string, kind: 'date' | 'datetime', sentAt: string): string {
  const sent = Date.parse(sentAt);
  if (kind === 'date') {
    const days = Math.round((Date.parse(`${value}T00:00:00Z`) - Date.parse(`${new Date(sent).toISOString().slice(0, 10)}T00:00:00Z`)) / DAY_MS);
    return days === 0 ? '{{$date}}' : `{{$date ${days}}}`;
  }
  const minutes = Math.round((Date.parse(value) - sent) / 60_000);
  if (minutes === 0) return '{{$datetime iso8601}}';
  const [n, unit] = minutes % 1440 === 0 ? [minutes / 1440, 'd'] : minutes % 60 === 0 ? [minutes / 60, 'h'] : [minutes, 'm'];
  return `{{$datetime iso8601 ${n} ${unit}}}`;
}
