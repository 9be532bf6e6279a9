import * as vscode from 'vscode';
import { parse, ParseError, printParseErrorCode } from 'jsonc-parser';
import { PayloadRefused } from '../../core/client/route';
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
    throw new PayloadRefused(`Not sent: ${name} has ${errors.length} error${errors.length === 1 ? '' : 's'} (first, line ${first.range.start.line + 1}: ${first.message}). Fix them first.`);
  }
  const parseErrors: ParseError[] = [];
  const value = parse(doc.getText(), parseErrors, { allowTrailingComma: false, disallowComments: true }) as unknown;
  if (parseErrors.length) {
    const e = parseErrors[0] as ParseError;
    throw new PayloadRefused(`Not sent: ${name} is not valid JSON (${printParseErrorCode(e.error)} at line ${doc.positionAt(e.offset).line + 1}).`);
  }
  return { value, name };
}
