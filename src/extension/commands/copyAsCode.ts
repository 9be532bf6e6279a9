import * as vscode from 'vscode';
import { ENDPOINTS } from '../../core/contract/endpoints';
import type { EnvironmentId } from '../../core/environments';
import type { EndpointId } from '../../core/contract/types';
import type { HistoryEntry } from '../../core/history/history';
import {
  generateSample,
  isSampleLanguage,
  SAMPLE_LANGUAGE_INFO,
  SAMPLE_LANGUAGES,
  sampleRequestFor,
  sampleRequestFromExchange,
  sampleRequestFromPayload,
  type SampleLanguage,
  type SampleRequest,
} from '../../core/samples';
import type { Services } from '../container';
import { entryOf, pickEntry, recordedRefOf, type RecordedRef } from '../commandSupport/history';
import { uriArg } from '../commandSupport/pickEnvironment';
import { envOf, treeArgOf, type TreeArg } from '../commandSupport/treeArgs';
import { defineCommand, UserCancelled } from './registry';

/** The request of a recorded history entry (its endpoint, parameters, query and body). */
function fromEntry(entry: HistoryEntry): SampleRequest {
  const replay = entry.replay;
  if (!replay || !Object.hasOwn(ENDPOINTS, replay.endpointId)) throw new Error('This request cannot be copied as code (its details were not kept).');
  const str = (o: Readonly<Record<string, unknown>> | undefined) =>
    Object.fromEntries(Object.entries(o ?? {}).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))) as Record<string, string>;
  let body: unknown;
  if (replay.bodyJson !== undefined) body = JSON.parse(replay.bodyJson) as unknown;
  return sampleRequestFor(replay.endpointId as EndpointId, str(replay.params), str(replay.query), body);
}

/**
 * The payload file's request: the open document's text (unsaved edits included), its `{{variables}}` resolved for
 * the active environment as a send would (a program holds values, not placeholders).
 */
async function fromDocument(services: Pick<Services, 'variables'>, doc: vscode.TextDocument): Promise<SampleRequest> {
  const name = doc.uri.path.split('/').pop() ?? doc.uri.toString();
  let value: unknown;
  try {
    value = JSON.parse(doc.getText());
  } catch (err) {
    throw new Error(`${name} is not JSON: ${(err as Error).message}`);
  }
  return sampleRequestFromPayload(value, name, services.variables.scope(undefined, doc.uri));
}

/** What the command's first argument names: a payload file, a row (an exchange, a registration), a recorded request; `given` when there was one. */
interface CodeTarget {
  readonly uri?: vscode.Uri;
  readonly row?: TreeArg;
  readonly recorded?: RecordedRef;
  readonly env?: EnvironmentId;
  readonly given: boolean;
}

function codeTargetOf(arg: unknown): CodeTarget {
  return { uri: uriArg(arg), row: treeArgOf(arg), recorded: recordedRefOf(arg), env: envOf(arg), given: arg !== undefined };
}

/** What to copy, from the command's argument: a payload file, an exchange, a history or log row, a registration row. */
async function requestOf(services: Pick<Services, 'variables' | 'history' | 'environments'>, { uri, row, recorded, env, given }: CodeTarget): Promise<SampleRequest> {
  if (uri) return fromDocument(services, await vscode.workspace.openTextDocument(uri));
  if (row?.node === 'exchange') return sampleRequestFromExchange(row.exchange);
  if (row?.node === 'registration' && row.id) return sampleRequestFor('getTireProtectionRegistration', { id: row.id });
  if (row?.node === 'motorClub' && row.id) return sampleRequestFor('getMotorClubRegistration', { id: row.id });
  const entry = entryOf(services, recorded);
  if (entry) return fromEntry(entry);
  const doc = vscode.window.activeTextEditor?.document;
  if (!given && doc && doc.languageId.startsWith('json')) return fromDocument(services, doc);
  return fromEntry(await pickEntry(services, env ?? services.environments.active.get(), 'Copy as Code'));
}

/** Asks for the language (the last one chosen first). Throws {@link UserCancelled}. */
async function pickLanguage(last: SampleLanguage | undefined): Promise<SampleLanguage> {
  const order = last ? [last, ...SAMPLE_LANGUAGES.filter((l) => l !== last)] : [...SAMPLE_LANGUAGES];
  const picked = await vscode.window.showQuickPick(
    order.map((l) => ({ label: SAMPLE_LANGUAGE_INFO[l].label, description: SAMPLE_LANGUAGE_INFO[l].detail, language: l })),
    { title: 'Copy as Code', placeHolder: 'Language of the program (it mints its own token from TPP_BASE_URL, TPP_PARTNER_ID, TPP_PRIVATE_KEY_FILE)' },
  );
  if (!picked) throw new UserCancelled();
  return picked.language;
}

/** Where the last language chosen is remembered (the container's `choices`: no module state, ARCHITECTURE.md). */
const LAST_LANGUAGE = 'tpp.copyAsCode.lastLanguage';

/**
 * `tpp.copyAsCode(target?, language?)`: copies a complete program in curl, Node, Python, C#, Java, Go or PHP that
 * sends the same request and mints a fresh partner JWT as the spec's Authentication section requires (core:
 * src/core/samples). `target`: a payload file's `vscode.Uri` (explorer, editor title), an `Exchange` or a row holding
 * one (`{ exchange }`: Integration Log, response view), a history row or entry id, a registration or motor-club row;
 * without one, the active payload editor, else a recorded request picked from the history. `language` skips the pick.
 * The copied text holds no token and no key. Resolves to `{ language, title }`.
 * @throws Error when the file is no valid payload, or the request matches no endpoint (shown by the command wrapper).
 */
export const copyAsCode = defineCommand({
  id: 'tpp.copyAsCode',
  needs: ['choices', 'environments', 'history', 'variables'],
  args: ([target, language]) => ({ target: codeTargetOf(target), language: typeof language === 'string' && isSampleLanguage(language) ? language : undefined }),
  async run(services, { target, language }) {
    const req = await requestOf(services, target);
    const last = services.choices.get<unknown>(LAST_LANGUAGE);
    const lang = language ?? (await pickLanguage(typeof last === 'string' && isSampleLanguage(last) ? last : undefined));
    await services.choices.update(LAST_LANGUAGE, lang);
    const text = generateSample(req, lang);
    await vscode.env.clipboard.writeText(text);
    const info = SAMPLE_LANGUAGE_INFO[lang];
    const vars = [...new Set(text.match(/\bTPP_[A-Z0-9_]+\b/g) ?? [])].filter((v) => v !== 'TPP_JSON');
    void vscode.window.showInformationMessage(`Copied a ${info.label} program for ${req.title}. It reads ${vars.join(', ')}.`, 'Open in Editor').then(async (choice) => {
      if (choice) await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: text, language: info.editorLanguage }));
    });
    return { language: lang, title: req.title };
  },
});
