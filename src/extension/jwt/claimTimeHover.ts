import * as vscode from 'vscode';
import { claimTimeHoverAt } from '../../core/jwt/time';
import { nowSeconds } from '../../core/jwt/mint';
import { isPayloadText } from '../../core/diagnostics/payload';

/**
 * Hover over the value (or key) of `iat`, `exp` or `nbf` in a payload file (a `tpp://schemas/` `$schema` or a
 * `*.<kind>.tpp.json` name; other JSON files are not ours to annotate): shows the date in ISO 8601 and relative to
 * now ("expires in 4 min"), and flags times written in milliseconds.
 */
export function registerClaimTimeHover(): vscode.Disposable {
  return vscode.languages.registerHoverProvider([{ language: 'json' }, { language: 'jsonc' }], {
    provideHover(document, position) {
      const text = document.getText();
      if (!/"(iat|exp|nbf)"/.test(text) || !isPayloadText(text, document.uri.path)) return undefined;
      const hover = claimTimeHoverAt(text, document.offsetAt(position), nowSeconds());
      if (!hover) return undefined;
      const md = new vscode.MarkdownString();
      md.appendMarkdown(`**${hover.claim}** `).appendText(hover.text);
      return new vscode.Hover(md, new vscode.Range(document.positionAt(hover.range[0]), document.positionAt(hover.range[1])));
    },
  });
}
