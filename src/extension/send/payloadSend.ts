import * as vscode from 'vscode';
import { parse, ParseError, printParseErrorCode } from 'jsonc-parser';
import { ENDPOINTS, kindFromSchemaUri, metaOf, PAYLOAD_KINDS, stripMeta, validatePayload } from '../../core/contract';
import type { EndpointDef, EndpointId, PayloadKind } from '../../core/contract/types';
import type { EnvironmentId } from '../../core/environments';
import { pickRegistration } from '../commands/mainHelpers';
import { DIAGNOSTIC_SOURCE } from '../diagnostics/controller';
import { UserCancelled } from '../commands/registry';
import type { RegistrationProduct } from '../tree/registrationPages';


/** Template placeholders that mean "not filled in yet" (the picker is shown instead). */
const PLACEHOLDERS = new Set(['REGISTRATION-ID', 'SHOP-UNIQUE-ID']);

/** What will be sent: endpoint, path parameters, query and body. */
export interface PreparedSend {
  readonly kind: PayloadKind;
  readonly endpointId: EndpointId;
  readonly params: Record<string, string>;
  readonly query: Record<string, string>;
  readonly body: unknown;
}

/** A payload that cannot be sent, with the reason. */
export class PayloadRefused extends Error {
  override readonly name = 'PayloadRefused';
}

/** Error diagnostics of the payload checker on `uri`. */
export function payloadErrors(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === DIAGNOSTIC_SOURCE && d.severity === vscode.DiagnosticSeverity.Error);
}

/** The `$product` of a cancellation payload: which registrations its endpoints address. */
function productFilter(kind: PayloadKind, meta: Record<string, unknown>): ((d: EndpointDef) => boolean) | undefined {
  if (kind !== 'cancellation') return undefined;
  const p = typeof meta.$product === 'string' && meta.$product ? meta.$product : 'tire-protection';
  return (d) => d.product === p;
}

/** A usable meta value (non-empty, not a template placeholder) as text. */
function metaValue(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t && !PLACEHOLDERS.has(t) ? t : undefined;
}

/**
 * Reads a payload document and decides where it goes (spec: Endpoints; payload meta data): the kind from
 * `$schema`, the body without `$` properties, path parameters and query from the kind's meta properties
 * (`$registrationId` → `:id`, `$invoiceNumber` → `?invoiceNumber=`, `$uniqueId`, `$companyName`, `$product`). When a
 * needed registration id is missing, asks with a picker of known records (or an invoice number); a missing shop
 * uniqueId is asked for.
 *
 * @throws PayloadRefused when the document has error diagnostics, is not JSON, names no payload kind, or does not
 *   validate; UserCancelled when a prompt is dismissed.
 */
export async function preparePayload(doc: vscode.TextDocument, env: EnvironmentId): Promise<PreparedSend> {
  const name = doc.uri.path.split('/').pop() ?? 'payload';
  const errors = payloadErrors(doc.uri);
  if (errors.length) {
    const first = errors[0] as vscode.Diagnostic;
    throw new PayloadRefused(`Not sent: ${name} has ${errors.length} error${errors.length === 1 ? '' : 's'} (first, line ${first.range.start.line + 1}: ${first.message}). Fix them first.`);
  }
  const parseErrors: ParseError[] = [];
  const value = parse(doc.getText(), parseErrors, { allowTrailingComma: false, disallowComments: true }) as unknown;
  if (parseErrors.length) {
    const e = parseErrors[0] as ParseError;
    throw new PayloadRefused(`Not sent: ${name} is not valid JSON (${printParseErrorCode(e.error)} at line ${doc.positionAt(e.offset).line + 1}).`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new PayloadRefused(`Not sent: ${name} must hold one JSON object with a "$schema" line.`);
  const meta = metaOf(value);
  const kind = typeof meta.$schema === 'string' ? kindFromSchemaUri(meta.$schema) : undefined;
  if (!kind) throw new PayloadRefused(`Not sent: ${name} has no "$schema": "tpp://schemas/<kind>.json" line naming a payload kind (use "New Payload…").`);
  const check = validatePayload(kind, value);
  if (!check.success) {
    const i = check.error.issues[0];
    throw new PayloadRefused(`Not sent: ${name} does not match ${kind}${i ? ` (${i.path.join('.') || '(root)'}: ${i.message})` : ''}.`);
  }
  const def = PAYLOAD_KINDS[kind];
  const params: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const [key, m] of Object.entries(def.meta)) {
    const v = metaValue(meta[key]);
    if (v === undefined) continue;
    if (m.pathParam) params[m.pathParam] = v;
    if (m.queryParam) query[m.queryParam] = v;
  }
  const inProduct = productFilter(kind, meta);
  const candidates = def.endpoints.map((id) => ENDPOINTS[id]).filter((d) => !inProduct || inProduct(d));
  if (candidates.length === 0) throw new PayloadRefused(`Not sent: ${name} has an unknown $product (use tire-protection, motor-club or registrations).`);
  const fits = (d: EndpointDef) =>
    d.pathParams.every((p) => p === 'company_name' || params[p] !== undefined) && Object.entries(d.query).every(([q, qd]) => !qd.required || query[q] !== undefined);
  let chosen = candidates.find(fits);
  if (!chosen) {
    const first = candidates[0] as EndpointDef;
    if (first.pathParams.includes('id')) {
      const product: RegistrationProduct = first.product === 'motor-club' ? 'motor-club' : 'tire-protection';
      const byInvoice = candidates.some((d) => Object.hasOwn(d.query, 'invoiceNumber'));
      const ref = await pickRegistration(env, product, `Which registration is ${name} for?`, byInvoice);
      if (ref.id) params.id = ref.id;
      if (ref.invoiceNumber) query.invoiceNumber = ref.invoiceNumber;
      if (ref.storeNumber) query.storeNumber = ref.storeNumber;
    } else if (first.pathParams.includes('uniqueId')) {
      const v = await vscode.window.showInputBox({ title: `Which shop is ${name} for?`, prompt: 'uniqueId of the shop (or set "$uniqueId" in the file)' });
      if (!v?.trim()) throw new UserCancelled();
      params.uniqueId = v.trim();
    }
    chosen = candidates.find(fits);
    if (!chosen) throw new PayloadRefused(`Not sent: ${name} does not say which record it is for.`);
  }
  // Keep only the query parameters the chosen endpoint has.
  for (const q of Object.keys(query)) if (!Object.hasOwn(chosen.query, q)) delete query[q];
  for (const p of Object.keys(params)) if (!chosen.pathParams.includes(p)) delete params[p];
  return { kind, endpointId: chosen.id, params, query, body: stripMeta(value) };
}
