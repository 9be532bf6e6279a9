import * as vscode from 'vscode';
import { generateSample, isSampleLanguage, SAMPLE_LANGUAGE_INFO, SAMPLE_LANGUAGES, type SampleLanguage } from '../../core/samples';
import { codeTargetOf, requestOfTarget } from '../commandSupport/codeTarget';
import { defineCommand, UserCancelled } from './registry';

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
    const { request: req } = await requestOfTarget(services, target, 'Copy as Code');
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
