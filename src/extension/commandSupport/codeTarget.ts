import * as vscode from 'vscode';
import { ENDPOINTS } from '../../core/contract/endpoints';
import type { EndpointId } from '../../core/contract/types';
import type { EnvironmentId } from '../../core/environments';
import type { HistoryEntry } from '../../core/history/history';
import { sampleRequestFor, sampleRequestFromExchange, sampleRequestFromPayload, type SampleRequest } from '../../core/samples';
import type { Services } from '../container';
import { entryOf, pickEntry, recordedRefOf, type RecordedRef } from './history';
import { uriArg } from './pickEnvironment';
import { envOf, treeArgOf, type TreeArg } from './treeArgs';

/**
 * What Copy as Code and Write Program… turn into a program: the first argument of either command, decoded once
 * (a payload file, a row holding an exchange or a registration, a recorded request), and the request it names.
 */

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

/** What a command's first argument names: a payload file, a row (an exchange, a registration), a recorded request; `given` when there was one. */
export interface CodeTarget {
  readonly uri?: vscode.Uri;
  readonly row?: TreeArg;
  readonly recorded?: RecordedRef;
  readonly env?: EnvironmentId;
  readonly given: boolean;
}

/** The {@link CodeTarget} of a command argument. */
export function codeTargetOf(arg: unknown): CodeTarget {
  return { uri: uriArg(arg), row: treeArgOf(arg), recorded: recordedRefOf(arg), env: envOf(arg), given: arg !== undefined };
}

/** What the target names, and the payload file it came from (when it came from one). */
export interface TargetRequest {
  readonly request: SampleRequest;
  /** The payload document's URI, when the request is a payload file's. */
  readonly from?: vscode.Uri;
}

/**
 * The request of a target: a payload file, an exchange, a history or log row, a registration row; without one, the
 * active payload editor, else a recorded request picked from the history (`title`: the picker's).
 * @throws Error when the file is no valid payload, or the request matches no endpoint; UserCancelled from the picker.
 */
export async function requestOfTarget(services: Pick<Services, 'variables' | 'history' | 'environments'>, { uri, row, recorded, env, given }: CodeTarget, title: string): Promise<TargetRequest> {
  if (uri) return { request: await fromDocument(services, await vscode.workspace.openTextDocument(uri)), from: uri };
  if (row?.node === 'exchange') return { request: sampleRequestFromExchange(row.exchange) };
  if (row?.node === 'registration' && row.id) return { request: sampleRequestFor('getTireProtectionRegistration', { id: row.id }) };
  if (row?.node === 'motorClub' && row.id) return { request: sampleRequestFor('getMotorClubRegistration', { id: row.id }) };
  const entry = entryOf(services, recorded);
  if (entry) return { request: fromEntry(entry) };
  const doc = vscode.window.activeTextEditor?.document;
  if (!given && doc && doc.languageId.startsWith('json')) return { request: await fromDocument(services, doc), from: doc.uri };
  return { request: fromEntry(await pickEntry(services, env ?? services.environments.active.get(), title)) };
}
