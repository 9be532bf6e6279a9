import * as vscode from 'vscode';
import { PayloadRefused } from '../../core/client/route';
import { parseStrictJson } from '../../core/json/strictJson';
import { DIAGNOSTIC_SOURCE } from '../diagnostics/controller';

/** Error diagnostics of the payload checker on `uri`. */
export function payloadErrors(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === DIAGNOSTIC_SOURCE && d.severity === vscode.DiagnosticSeverity.Error);
}

/**
 * Reads a payload document for sending: refused while the payload checker reports errors on it, or when it is not
 * strict JSON. Routing (kind, endpoint, parameters) is core's `routePayload` (../shared/spec/partner-interface.md,
 * Endpoints).
 *
 * @returns the document's JSON value and its file name.
 * @throws PayloadRefused with the first error diagnostic or JSON parse error.
 */
export function readPayload(doc: vscode.TextDocument): { value: unknown; name: string } {
  const name = doc.uri.path.split('/').pop() ?? 'payload';
  const errors = payloadErrors(doc.uri);
  if (errors.length) {
    const first = errors[0] as vscode.Diagnostic;
    const problems = errors.map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
    throw new PayloadRefused(`Not sent: ${name} has ${errors.length} error${errors.length === 1 ? '' : 's'} (first, line ${first.range.start.line + 1}: ${first.message}). Fix them first.`, problems);
  }
  const parsed = parseStrictJson(doc.getText());
  if (!parsed.ok) {
    throw new PayloadRefused(`Not sent: ${name} is not valid JSON (${parsed.code} at line ${doc.positionAt(parsed.offset).line + 1}).`);
  }
  return { value: parsed.value, name };
}
