import * as vscode from 'vscode';
import { PAYLOAD_KINDS } from '../../core/contract';
import { addSchemaEdit, findSchemaDeclaration, guessKind, kindFromFileName, type Fix } from '../../core/diagnostics';
import { DIAGNOSTIC_SOURCE, isCandidate, type DiagnosticsController } from './controller';

/** Documents larger than this are not parsed just to offer "Add $schema". */
const GUESS_MAX_CHARS = 1024 * 1024;

/**
 * Quick fixes for payload problems (docs/diagnostics.md, Every diagnostic: the Quick fix column), so that a
 * problem the spec states is fixed where it is shown: add missing required properties, rename an
 * unknown property to the suggestion, format money, correct the case of an allowed value (ServiceType),
 * fix an unknown kind in `$schema`; and, for a JSON file without `$schema` whose shape matches exactly
 * one payload kind, "Add $schema". The edits are computed by the core (src/core/diagnostics).
 */
export class PayloadCodeActions implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(private readonly controller: DiagnosticsController) {}

  provideCodeActions(doc: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (!isCandidate(doc)) return [];
    const actions: vscode.CodeAction[] = [];
    const seen = new Map<Fix, vscode.CodeAction>();
    const published = this.controller.problemsOf(doc.uri);
    for (const diagnostic of context.diagnostics) {
      if (diagnostic.source !== DIAGNOSTIC_SOURCE) continue;
      const match = published.find((p) => p.diagnostic === diagnostic || (p.diagnostic.range.isEqual(diagnostic.range) && p.diagnostic.message === diagnostic.message));
      const fix = match?.problem.fix;
      if (!fix) continue;
      const existing = seen.get(fix);
      if (existing) {
        existing.diagnostics = [...(existing.diagnostics ?? []), diagnostic];
        continue;
      }
      const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
      action.edit = new vscode.WorkspaceEdit();
      for (const e of fix.edits) action.edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.offset), doc.positionAt(e.offset + e.length)), e.newText);
      action.diagnostics = [diagnostic];
      action.isPreferred = fix.preferred;
      seen.set(fix, action);
      actions.push(action);
    }
    const schemaAction = this.addSchemaAction(doc, range);
    if (schemaAction) actions.push(schemaAction);
    return actions;
  }

  /** "Add $schema" for a JSON object without a payload `$schema` whose shape matches exactly one kind. */
  private addSchemaAction(doc: vscode.TextDocument, range: vscode.Range): vscode.CodeAction | undefined {
    const text = doc.getText();
    if (text.length > GUESS_MAX_CHARS || findSchemaDeclaration(text) || kindFromFileName(doc.uri.path) || text.includes('"$schema"')) return undefined;
    if (range.start.line > 0 && range.start.line < doc.lineCount - 1 && !range.isEmpty) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return undefined;
    }
    const kind = guessKind(value);
    if (!kind) return undefined;
    const rootStart = text.indexOf('{');
    const edit = addSchemaEdit(text, rootStart, kind);
    const action = new vscode.CodeAction(`Add $schema: ${PAYLOAD_KINDS[kind].title} (tpp://schemas/${kind}.json)`, vscode.CodeActionKind.QuickFix);
    action.edit = new vscode.WorkspaceEdit();
    action.edit.insert(doc.uri, doc.positionAt(edit.offset), edit.newText);
    return action;
  }
}
