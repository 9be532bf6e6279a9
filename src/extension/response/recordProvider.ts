import * as vscode from 'vscode';
import { EnvironmentId, isEnvironmentId } from '../../core/environments';
import { maskSecrets } from '../../core/log/mask';
import type { ApiClients } from '../services/apiClients';
import { MemoryDocuments } from '../documents/memoryDocuments';

/** URI scheme of the read-only JSON documents of tree nodes. */
export const RECORD_SCHEME = 'tpp-record';

/**
 * Provider of `tpp-record:` documents: any tree node as read-only JSON. Registrations and motor-club registrations
 * are read from the server each time the document is (re)loaded — "Refresh" (tpp.refreshRecord) reads them again;
 * other nodes (claims, history entries) show the snapshot they were opened with.
 *
 * Tabs are titled by what the user knows the record by (the last path segment): `INV-1042 · registration`,
 * `SRV-7 · claim`. URIs: `tpp-record:/<env>/registration/<id>/<title>`, `tpp-record:/<env>/motor-club/<id>/<title>`,
 * `tpp-record:/<env>/snapshot/<n>/<title>` (the document's language is set to JSON when opened).
 */
export class RecordProvider extends MemoryDocuments {
  constructor(private readonly api: ApiClients) {
    super(RECORD_SCHEME, 100, '// Unknown record\n');
  }

  override async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const snap = this.stored(uri);
    if (snap !== undefined) return snap;
    const [, env, kind, file] = uri.path.split('/');
    const id = (file ?? '').replace(/\.json$/, '');
    if (!isEnvironmentId(env) || !id) return '// Unknown record\n';
    try {
      if (kind === 'registration') {
        const [reg, meta] = await Promise.all([
          this.api.send(env, 'getTireProtectionRegistration', { id }, undefined),
          this.api.send(env, 'getTireProtectionRegistrationMetadata', { id }, undefined, { quiet: true }).then(
            (r) => r.response.body,
            (err: unknown) => ({ unavailable: err instanceof Error ? err.message : String(err) }),
          ),
        ]);
        return this.json({ registration: reg.response.body, metadata: meta });
      }
      if (kind === 'motor-club') return this.json((await this.api.send(env, 'getMotorClubRegistration', { id }, undefined)).response.body);
    } catch (err) {
      return this.json({ error: err instanceof Error ? err.message : String(err), hint: 'Run "Tire Protection: Refresh Record" to try again.' });
    }
    return '// Unknown record\n';
  }

  private json(v: unknown): string {
    return maskSecrets(JSON.stringify(v, null, 2)) + '\n';
  }

  /**
   * A live registration or motor-club registration document (read again on refresh), titled
   * `<invoice number> · registration` (or `· motor-club registration`); the id when the invoice number is unknown.
   */
  liveUri(env: EnvironmentId, kind: 'registration' | 'motor-club', id: string, invoiceNumber?: string): vscode.Uri {
    const what = kind === 'registration' ? 'registration' : 'motor-club registration';
    return vscode.Uri.from({ scheme: RECORD_SCHEME, path: `/${env}/${kind}/${segment(id)}/${segment(`${invoiceNumber || id} · ${what}`)}` });
  }

  /** Stores a snapshot document titled `title` (e.g. `SRV-7 · claim`) and returns its URI. */
  snapshot(env: EnvironmentId, title: string, value: unknown): vscode.Uri {
    return this.store(this.json(value), (seq) => `/${env}/snapshot/${seq}/${segment(title)}`);
  }

  /** Opens a record document as JSON (read-only). */
  async open(uri: vscode.Uri): Promise<vscode.TextDocument> {
    const doc = await vscode.workspace.openTextDocument(uri);
    const json = doc.languageId === 'json' ? doc : await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(json, { preview: true });
    return json;
  }

  /** Reads a live document again (no effect on snapshots). */
  refresh(uri: vscode.Uri): void {
    this.changed(uri);
  }
}

/** A path segment showing `text`: a slash would start another segment, so it is shown as a division slash. */
function segment(text: string): string {
  return text.replace(/\//g, '\u2215');
}
