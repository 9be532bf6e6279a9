import * as vscode from 'vscode';
import { SCHEMA_URI_PREFIX } from '../../core/contract/kinds';
import { KNOWN_DYNAMIC_VARIABLES, captureNames, isCaptureRoot, parseRefs, readPath } from '../../core/variables';
import type { VariablesService } from '../services/variables';

/**
 * Completion and hover of `{{variables}}` in payload files: after `{{` the dynamic values (with their
 * arguments as a snippet), the variables of the active environment (`tpp.variables`) and the capture fields; hovering a
 * variable shows its current value, or "resolved at send time" for a dynamic one.
 */

const JSON_DOCS: vscode.DocumentSelector = [{ language: 'json' }, { language: 'jsonc' }];

const isPayload = (doc: vscode.TextDocument): boolean => doc.getText(new vscode.Range(0, 0, Math.min(doc.lineCount, 40), 0)).includes(SCHEMA_URI_PREFIX) || /\.[a-z0-9-]+\.json$/i.test(doc.uri.path);

/** A short, single-line preview of a value. */
const preview = (v: unknown): string => {
  const s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
};

export class VariableCompletionProvider implements vscode.CompletionItemProvider {
  constructor(private readonly variables: VariablesService) {}

  provideCompletionItems(doc: vscode.TextDocument, pos: vscode.Position): vscode.CompletionItem[] | undefined {
    const line = doc.lineAt(pos.line).text;
    const before = line.slice(0, pos.character);
    const open = before.lastIndexOf('{{');
    if (open < 0 || before.lastIndexOf('}}') > open || !isPayload(doc)) return undefined;
    const typed = before.slice(open + 2);
    if (/[{}"]/.test(typed)) return undefined;
    const range = new vscode.Range(pos.line, open + 2, pos.line, pos.character);
    const closed = line.slice(pos.character).trimStart().startsWith('}}');
    const close = closed ? '' : '}}';
    const items: vscode.CompletionItem[] = [];
    for (const [i, d] of KNOWN_DYNAMIC_VARIABLES.entries()) {
      const item = new vscode.CompletionItem({ label: d.name, detail: d.arguments ? ` ${d.arguments}` : undefined, description: 'dynamic value' }, vscode.CompletionItemKind.Function);
      item.insertText = new vscode.SnippetString(`${d.name.replace('$', '\\$')}${d.snippet}${close}`);
      item.filterText = d.name;
      item.range = range;
      item.sortText = `0${i}`;
      item.documentation = new vscode.MarkdownString(`${d.description}\n\nResolved at send time.`);
      items.push(item);
    }
    const env = this.variables.activeEnvironment();
    for (const [name, value] of Object.entries(this.variables.environment(env, doc.uri))) {
      const item = new vscode.CompletionItem({ label: name, description: `${env}: ${preview(value)}` }, vscode.CompletionItemKind.Variable);
      item.insertText = `${name}${close}`;
      item.range = range;
      item.sortText = `1${name}`;
      items.push(item);
    }
    const captured = this.variables.captured(env);
    for (const c of captureNames()) {
      for (const field of c.fields) {
        const name = `${c.name}.${field}`;
        const got = readPath(captured[c.name], field);
        const item = new vscode.CompletionItem({ label: name, description: got.found ? preview(got.value) : 'not captured yet' }, vscode.CompletionItemKind.Field);
        item.insertText = `${name}${close}`;
        item.range = range;
        item.sortText = `2${field === 'id' ? ' ' : ''}${name}`;
        item.documentation = new vscode.MarkdownString(`Captured from the last 2xx create of ${c.kinds.map((k) => `\`${k}\``).join(' or ')} sent to ${env}.`);
        items.push(item);
      }
    }
    return items;
  }
}

export class VariableHoverProvider implements vscode.HoverProvider {
  constructor(private readonly variables: VariablesService) {}

  provideHover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const line = doc.lineAt(pos.line).text;
    if (!line.includes('{{')) return undefined;
    const ref = parseRefs(line).find((r) => r.start <= pos.character && pos.character <= r.end);
    if (!ref || !isPayload(doc)) return undefined;
    const env = this.variables.activeEnvironment();
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**\`${ref.raw.replace(/`/g, '')}\`**\n\n`);
    const dyn = KNOWN_DYNAMIC_VARIABLES.find((d) => d.name === ref.name);
    if (dyn) md.appendMarkdown(`Dynamic value, resolved at send time: ${dyn.description}`);
    else if (isCaptureRoot(ref.name)) {
      const [head, ...rest] = ref.name.split('.');
      const got = readPath(this.variables.captured(env)[head!], rest.join('.'));
      md.appendMarkdown(got.found ? `Captured on ${env}: ` : `Not captured yet on ${env}: send a create first.`);
      if (got.found) md.appendCodeblock(JSON.stringify(got.value, null, 2), 'json');
    } else {
      const got = readPath(this.variables.environment(env, doc.uri), ref.name);
      md.appendMarkdown(got.found ? `Variable of ${env} (tpp.variables): ` : `Unknown in ${env}: define it in the \`tpp.variables\` setting.`);
      if (got.found) md.appendCodeblock(JSON.stringify(got.value, null, 2), 'json');
    }
    return new vscode.Hover(md, new vscode.Range(pos.line, ref.start, pos.line, ref.end));
  }
}

/** Registers completion (triggered by `{` and `$`) and hover of variables in JSON documents. */
export function registerVariableFeatures(variables: VariablesService): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.languages.registerCompletionItemProvider(JSON_DOCS, new VariableCompletionProvider(variables), '{', '$'),
    vscode.languages.registerHoverProvider(JSON_DOCS, new VariableHoverProvider(variables)),
  );
}
