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
 * Asks for a registration of `env`: a quick pick of {@link registrationChoices}, the rows in the `offered` states
 * (those the command applies to) first, then the others with their state and the refusal they will meet (spec:
 * States and transitions: a second cancellation, or a claim on a cancelled or expired registration, answers 409;
 * sending it is the user's choice). When `byInvoice`, an entry to name an invoice number stays listed whatever is
 * typed, and text that matches no row is taken as the invoice number (then the store number is asked).
 * @throws UserCancelled when the user closes a prompt.
 */
export async function pickRegistration(services: RegistrationLists, env: EnvironmentId, product: RegistrationProduct, title: string, byInvoice: boolean, offered?: readonly RegistrationState[]): Promise<RegistrationRef> {
  let rows: RefItem[] = [];
  try {
    const all = await registrationChoices(services, env, product);
    const fits = (c: RegistrationChoice) => !offered || offered.includes(c.state);
    rows = [...all.filter(fits), ...all.filter((c) => !fits(c)).map((c) => ({ ...c, detail: refusal(c.state) }))].map(({ label, description = '', detail, ref }) => ({ label, description, detail, ref }));
  } catch {
    rows = [];
  }
  const picked = await quickPickOrTyped(rows, title, byInvoice);
  if (picked.ref) return picked.ref;
  const invoiceNumber = picked.typed || (await vscode.window.showInputBox({ title, prompt: 'Invoice number of the registration', validateInput: (v) => (v.trim() ? undefined : 'Enter the invoice number') }));
  if (!invoiceNumber) throw new UserCancelled();
  let storeNumber: string | undefined;
  if (product === 'tire-protection') {
    storeNumber = await vscode.window.showInputBox({ title, prompt: `Store number of ${invoiceNumber.trim()} (only needed when the invoice number alone is not unique; leave empty otherwise)` });
    if (storeNumber === undefined) throw new UserCancelled();
  }
  return { invoiceNumber: invoiceNumber.trim(), ...(storeNumber?.trim() ? { storeNumber: storeNumber.trim() } : {}) };
}

/** What a row the command is not offered on will meet when sent anyway (spec: States and transitions). */
function refusal(state: RegistrationState): string {
  return state === 'Cancelled' || state === 'Expired' ? `${state}: the server answers 409 (Conflict)` : `${state}: the server may refuse it`;
}

interface RefItem extends vscode.QuickPickItem {
  readonly ref?: RegistrationRef;
}

/**
 * A quick pick of `rows`; with `byInvoice`, plus an "Enter an invoice number…" entry that is always shown and, once
 * text is typed, names it ("Use invoice number …"), so Enter on text matching no row uses that text. Resolves to the
 * picked row's ref, or the typed text (empty when the entry was picked with nothing typed).
 * @throws UserCancelled when the pick is closed.
 */
function quickPickOrTyped(rows: readonly RefItem[], title: string, byInvoice: boolean): Promise<{ ref?: RegistrationRef; typed?: string }> {
  const qp = vscode.window.createQuickPick<RefItem>();
  qp.title = title;
  qp.placeholder = byInvoice ? 'Registration, or type an invoice number' : 'Registration';
  qp.matchOnDescription = true;
  const typeIt = (value: string): RefItem => ({
    label: value.trim() ? `$(edit) Use invoice number "${value.trim()}"` : '$(edit) Enter an invoice number…',
    description: 'uses the ?invoiceNumber= form',
    alwaysShow: true,
  });
  qp.items = byInvoice ? [...rows, typeIt('')] : rows;
  return new Promise((resolve, reject) => {
    let done = false;
    const subs = [
      qp.onDidChangeValue((v) => {
        if (byInvoice) qp.items = [...rows, typeIt(v)];
      }),
      qp.onDidAccept(() => {
        const item = qp.activeItems[0];
        if (!item && !(byInvoice && qp.value.trim())) return;
        done = true;
        resolve(item?.ref ? { ref: item.ref } : { typed: qp.value.trim() });
        qp.hide();
      }),
      qp.onDidHide(() => {
        subs.forEach((d) => d.dispose());
        qp.dispose();
        if (!done) reject(new UserCancelled());
      }),
    ];
    qp.show();
  });
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
