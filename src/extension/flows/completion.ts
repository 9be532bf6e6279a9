import * as vscode from 'vscode';
import { ASSERTION_OPERATORS } from '../../core/flows';
import { KNOWN_DYNAMIC_VARIABLES } from '../../core/variables';
import type { FlowIndex } from '../services/flowIndex';
import type { VariablesService } from '../services/variables';
import type { DataColumnsReader } from './rowColumns';


/** What may follow `??` (the subjects of ../shared/spec/partner-interface.md's answers a flow checks). */
export const ASSERTION_SUBJECTS: readonly { label: string; detail: string; snippet: string }[] = [
  { label: 'status', detail: 'the answer’s status code', snippet: 'status == ${1:200}' },
  { label: 'header', detail: 'a response header', snippet: 'header ${1:content-type} ${2|includes,==,!=,exists,matches|} ${3:application/json}' },
  { label: 'body', detail: 'a JSONPath into the JSON answer', snippet: 'body ${1:$.id} ${2|exists,==,!=,<,<=,>,>=,includes,matches|} $3' },
  { label: 'duration', detail: 'milliseconds from sending to the whole answer', snippet: 'duration < ${1:1000}' },
  { label: 'contract', detail: 'the answer is one the contract declares for the endpoint', snippet: 'contract' },
];


/** Variables every flow gets from the environment it runs on (core's environmentVariablesOf; docs/flows.md). */
export const FLOW_ENVIRONMENT_VARIABLES: readonly { name: string; detail: string }[] = [
  { name: 'baseUrl', detail: 'Version 3 base address, ending in /api/v3' },
  { name: 'v2BaseUrl', detail: 'Version 2 host' },
  { name: 'eligibilityBaseUrl', detail: 'Eligibility lookup base, ending in /api/v1' },
  { name: 'partnerId', detail: 'Partner ID (the JWT iss)' },
];

const item = (label: string, kind: vscode.CompletionItemKind, detail: string, insert?: string | vscode.SnippetString) => {
  const c = new vscode.CompletionItem(label, kind);
  c.detail = detail;
  if (insert !== undefined) c.insertText = insert;
  return c;
};

/**
 * Completion in flow files: inside `{{…}}` the file's variables and `# @var` names, the `$` system variables, the
 * environment's (`baseUrl`…, and `tpp.variables`), `name.response.body.$` of the named requests above the cursor, and
 * `row.<column>` of the `# @data` file's columns; after `??` the assertion subjects, then the operators.
 */
export class FlowCompletionProvider implements vscode.CompletionItemProvider {
  constructor(
    private readonly flows: FlowIndex,
    private readonly variables: VariablesService,
    private readonly data: DataColumnsReader,
  ) {}

  provideCompletionItems(doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.CompletionItem[]> | vscode.CompletionItem[] | undefined {
    const before = doc.lineAt(pos.line).text.slice(0, pos.character);
    const inVariable = /\{\{\s*([\w$.-]*)$/.exec(before);
    if (inVariable) return this.variableItems(doc, pos, inVariable[1] ?? '');
    const assertion = /^\s*\?\?\s*(.*)$/.exec(before);
    if (assertion) return assertionItems(assertion[1] ?? '');
    return undefined;
  }

  /** `row.<column>` of each column of the flow's `# @data` file (rowColumns.ts), none without one. */
  private async rowItems(doc: vscode.TextDocument, range: vscode.Range): Promise<vscode.CompletionItem[]> {
    const data = await this.data.of(doc.uri, doc.getText(), []).catch(() => undefined);
    return (data?.columns ?? []).map((column) => {
      const c = item(`row.${column}`, vscode.CompletionItemKind.Field, `column of ${data?.written ?? 'the data file'} (each row's value)`);
      c.range = range;
      return c;
    });
  }

  private async variableItems(doc: vscode.TextDocument, pos: vscode.Position, typed: string): Promise<vscode.CompletionItem[]> {
    const flow = this.flows.get(doc.uri) ?? this.flows.update(doc.uri, doc.getText());
    const range = new vscode.Range(pos.translate(0, -typed.length), pos);
    const named = flow.requests.filter((r) => r.name && r.line - 1 < pos.line);
    const dot = typed.indexOf('.');
    if (dot > 0) {
      const rows = typed.startsWith('row.') ? await this.rowItems(doc, range) : [];
      const request = named.find((r) => r.name === typed.slice(0, dot));
      if (!request) return rows;
      return [
        ...rows,
        ...['response.body.$', 'response.headers.', 'response.status'].map((tail) => {
          const c = item(`${request.name}.${tail}`, vscode.CompletionItemKind.Field, `the answer of ${request.label}`);
          c.range = range;
          return c;
        }),
      ];
    }
    const out: vscode.CompletionItem[] = [];
    const seen = new Set<string>();
    const add = (c: vscode.CompletionItem) => {
      const label = typeof c.label === 'string' ? c.label : c.label.label;
      if (seen.has(label)) return;
      seen.add(label);
      c.range = range;
      out.push(c);
    };
    for (const v of [...flow.variables].reverse()) add(item(v.name, vscode.CompletionItemKind.Variable, `file variable = ${v.value}`));
    for (const d of flow.declared ?? []) add(item(d.name, vscode.CompletionItemKind.Variable, `# @var: given with --var ${d.name}=… or tpp.variables${d.description ? ` (${d.description})` : ''}`));
    for (const v of FLOW_ENVIRONMENT_VARIABLES) add(item(v.name, vscode.CompletionItemKind.Constant, v.detail));
    for (const name of this.variables.names(undefined, doc.uri)) add(item(name, vscode.CompletionItemKind.Variable, 'tpp.variables (active environment)'));
    for (const v of KNOWN_DYNAMIC_VARIABLES) add(item(v.name, vscode.CompletionItemKind.Function, v.description, v.snippet ? new vscode.SnippetString(`${v.name} ${v.snippet}`) : undefined));
    for (const r of named) add(item(`${r.name}.response.body.$`, vscode.CompletionItemKind.Reference, `the JSON answer of ${r.label}`));
    for (const c of await this.rowItems(doc, range)) add(c);
    return out;
  }
}

/** Subjects right after `??`, operators after a subject (and after `header <name>` / `body <path>`). */
function assertionItems(typed: string): vscode.CompletionItem[] {
  const words = typed.split(/\s+/).filter(Boolean);
  const complete = typed.endsWith(' ');
  const subject = words[0];
  if (!subject || (words.length === 1 && !complete)) {
    return ASSERTION_SUBJECTS.map((s) => item(s.label, vscode.CompletionItemKind.Keyword, s.detail, new vscode.SnippetString(s.snippet)));
  }
  const needsArgument = subject === 'header' || subject === 'body';
  const operatorAt = needsArgument ? 2 : 1;
  if (subject === 'contract' || words.length > operatorAt + (complete ? 0 : 1) || (words.length < operatorAt + (complete ? 0 : 1) && needsArgument)) return [];
  return ASSERTION_OPERATORS.map((op) => item(op, vscode.CompletionItemKind.Operator, 'assertion operator'));
}
