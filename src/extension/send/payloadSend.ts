import * as vscode from 'vscode';
import { PayloadRefused } from '../../core/client/route';
import { parseStrictJson } from '../../core/json/strictJson';
import { DIAGNOSTIC_SOURCE } from '../diagnostics/controller';

/** Error diagnostics of the payload checker on `uri`. */
export function payloadErrors(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === DIAGNOSTIC_SOURCE && d.severity === vscode.DiagnosticSeverity.Error);
}

/**
 * A send refused by the payload checker's errors (valid JSON): the refusal offers Send Anyway, which sends the same
 * file again past the checker, so that the server's own 400 can be seen. Production keeps its typed confirmation
 * (runRequest's production guard asks for every write).
 */
export class SendRefused extends PayloadRefused {
  constructor(
    message: string,
    problems: readonly string[],
    /** Sends the file again without the checker's veto (`tpp.sendPayload` with `{ anyway: true }`). */
    readonly sendAnyway: () => Thenable<unknown>,
  ) {
    super(message, problems);
  }
}

/**
 * Reads a payload document for sending: refused while the payload checker reports errors on it, or when it is not
 * strict JSON. Routing (kind, endpoint, parameters) is core's `routePayload` (../shared/spec/partner-interface.md,
 * Endpoints).
 *
 * @param options `ignoreErrors`: sent anyway, the checker's errors do not refuse it; `sendAnyway`: what the refusal's
 *   Send Anyway button runs.
 * @returns the document's JSON value and its file name.
 * @throws SendRefused with the first error diagnostic; PayloadRefused when the text is not strict JSON.
 */
export function readPayload(doc: vscode.TextDocument, options: { readonly ignoreErrors?: boolean; readonly sendAnyway?: () => Thenable<unknown> } = {}): { value: unknown; name: string } {
  const name = doc.uri.path.split('/').pop() ?? 'payload';
  const parsed = parseStrictJson(doc.getText());
  if (!parsed.ok) {
    throw new PayloadRefused(`Not sent: ${name} is not valid JSON (${parsed.code} at line ${doc.positionAt(parsed.offset).line + 1}).`);
  }
  const errors = payloadErrors(doc.uri);
  if (errors.length && !options.ignoreErrors) {
    const first = errors[0] as vscode.Diagnostic;
    const problems = errors.map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
    const message = `Not sent: ${name} has ${errors.length} error${errors.length === 1 ? '' : 's'} (first, line ${first.range.start.line + 1}: ${first.message}).`;
    if (options.sendAnyway) throw new SendRefused(`${message} Fix them first, or Send Anyway to see how the server answers.`, problems, options.sendAnyway);
    throw new PayloadRefused(`${message} Fix them first.`, problems);
  }
  return { value: parsed.value, name };
}
