import * as vscode from 'vscode';
import { PAYLOAD_KINDS, schemaUri, type PayloadKind } from '../../core/contract';
import type { EnvironmentId } from '../../core/environments';
import { UserCancelled } from '../services/userCancelled';
import type { RegistrationsModel } from '../services/registrationsModel';
import { mergePages, rowText, type RegistrationProduct, type RegistrationState } from '../../core/listing/registrationPages';
import type { RegistrationRef } from './treeArgs';

/** What the registration pickers read: the registration lists as the tree shows them. */
export interface RegistrationLists {
  readonly registrations: RegistrationsModel;
}

/** One registration a picker offers. */
export interface RegistrationChoice extends vscode.QuickPickItem {
  readonly ref: RegistrationRef;
  readonly state: RegistrationState;
}

/**
 * The registrations of `env` a picker offers, from the model the tree reads: its rows (page 1 is loaded if needed),
 * each once, through its invoice prefix filter, in the state the tree shows (a registration being read again after
 * a claim or a cancellation is waited for), and, given `offered`, only rows in those states (the states whose rows'
 * menus offer the command). Rows without `_id` cannot be acted on and are left out.
 */
export async function registrationChoices(services: RegistrationLists, env: EnvironmentId, product: RegistrationProduct, offered?: readonly RegistrationState[]): Promise<RegistrationChoice[]> {
  const model = services.registrations;
  const pages = await model.pages(env, product);
  if (product === 'tire-protection') await model.settled(env);
  const out: RegistrationChoice[] = [];
  for (const { row } of mergePages(pages)) {
    const id = rowText(row, '_id');
    if (!id || !model.matches(env, product, row)) continue;
    const state = product === 'tire-protection' ? model.stateOf(env, row).state : row.state;
    if (offered && !offered.includes(state)) continue;
    const invoiceNumber = rowText(row, 'invoiceNumber');
    out.push({ label: invoiceNumber || '(no invoice number)', description: `${state} · ${id}`, ref: { id, ...(invoiceNumber ? { invoiceNumber } : {}) }, state });
  }
  return out;
}

/**
 * Asks for a registration of `env`: a quick pick of {@link registrationChoices} (`offered`: the states the command
 * applies to), plus, when `byInvoice`, an entry to type an invoice number (and store number) instead.
 */
export async function pickRegistration(services: RegistrationLists, env: EnvironmentId, product: RegistrationProduct, title: string, byInvoice: boolean, offered?: readonly RegistrationState[]): Promise<RegistrationRef> {
  let rows: { label: string; description: string; ref?: RegistrationRef }[] = [];
  try {
    rows = (await registrationChoices(services, env, product, offered)).map(({ label, description = '', ref }) => ({ label, description, ref }));
  } catch {
    rows = [];
  }
  const typeIt = { label: '$(edit) Enter an invoice number…', description: 'uses the ?invoiceNumber= form', ref: undefined };
  const picked = await vscode.window.showQuickPick(byInvoice ? [typeIt, ...rows] : rows, { title, placeHolder: 'Registration', matchOnDescription: true });
  if (!picked) throw new UserCancelled();
  if (picked.ref) return picked.ref;
  const invoiceNumber = await vscode.window.showInputBox({ title, prompt: 'Invoice number of the registration', validateInput: (v) => (v.trim() ? undefined : 'Enter the invoice number') });
  if (!invoiceNumber) throw new UserCancelled();
  let storeNumber: string | undefined;
  if (product === 'tire-protection') {
    storeNumber = await vscode.window.showInputBox({ title, prompt: 'Store number (only needed when the invoice number alone is not unique; leave empty otherwise)' });
    if (storeNumber === undefined) throw new UserCancelled();
  }
  return { invoiceNumber: invoiceNumber.trim(), ...(storeNumber?.trim() ? { storeNumber: storeNumber.trim() } : {}) };
}

/**
 * How a message names a registration: by the invoice number a person knows it by (from `ref`, or the rows the tree
 * read), `INV-1042 / store 7` when cancelled by invoice and store, the id only when no invoice number is known.
 */
export function registrationName(services: RegistrationLists, env: EnvironmentId, product: RegistrationProduct, ref: RegistrationRef): string {
  const pages = ref.invoiceNumber || !ref.id ? undefined : services.registrations.loadedPages(env, product);
  const row = pages && mergePages(pages).find((s) => s.key === ref.id);
  const invoice = ref.invoiceNumber || (row ? rowText(row.row, 'invoiceNumber') : '');
  if (!invoice) return ref.id ?? '';
  return ref.id || !ref.storeNumber ? invoice : `${invoice} / store ${ref.storeNumber}`;
}

/** Opens a new untitled payload of `kind`: its template, with `values` merged over it. Resolves to the document. */
export async function openPayload(kind: PayloadKind, values: Record<string, unknown> = {}): Promise<vscode.TextDocument> {
  const { $schema: _drop, ...template } = PAYLOAD_KINDS[kind].template;
  const content = JSON.stringify({ $schema: schemaUri(kind), ...template, ...values }, null, 2) + '\n';
  const doc = await vscode.workspace.openTextDocument({ language: 'json', content });
  await vscode.window.showTextDocument(doc);
  return doc;
}

/** The current time as ISO 8601 without milliseconds, e.g. `2026-11-21T14:05:09Z`. */
export function nowIso(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}
