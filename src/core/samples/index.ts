/**
 * Code samples: the same request in curl, Node, Python, C#, Java, Go and PHP, each a complete program that
 * mints a fresh partner JWT as the spec's Authentication section requires (ES256/384/512 from the key's curve,
 * `iat`/`exp` in Unix seconds, `aud` = the base address exactly, `iss` = the Partner ID, raw r||s signature) and
 * reads its configuration from `TPP_BASE_URL`, `TPP_PARTNER_ID` and `TPP_PRIVATE_KEY_FILE`; none embeds a key or a
 * token. Shared by `tpp code` and the editor's Copy as Code; Python and Node.js programs that load the dotenv file
 * themselves for Write Program… (program.ts). No editor, no I/O.
 */
import { csharpSample } from './languages/csharp';
import { curlSample } from './languages/curl';
import { goSample } from './languages/go';
import { javaSample } from './languages/java';
import { nodeSample } from './languages/node';
import { phpSample } from './languages/php';
import { pythonSample } from './languages/python';
import { isProgramLanguage } from './program';
import { SAMPLE_LANGUAGE_INFO, type SampleLanguage } from './info';
import { SampleRefused, type SampleOptions, type SampleRequest } from './request';

export { envParam, RECORD_ENV, SAMPLE_ENV, SampleRefused, sampleRequestFor, sampleRequestFromExchange, sampleRequestFromPayload } from './request';
export type { PathPart, SampleOptions, SampleRequest } from './request';
export { isSampleLanguage, SAMPLE_LANGUAGE_INFO, SAMPLE_LANGUAGES, type SampleLanguage } from './info';
export { dotenvValues, isProgramLanguage, MAX_PROGRAM_NAMES, PROGRAM_INFO, PROGRAM_LANGUAGES, programFileName, programLanguageOf, type ProgramLanguage } from './program';

const GENERATORS: Readonly<Record<SampleLanguage, (req: SampleRequest, options?: SampleOptions) => string>> = {
  curl: curlSample,
  node: nodeSample,
  python: pythonSample,
  csharp: csharpSample,
  java: javaSample,
  go: goSample,
  php: phpSample,
};

/**
 * The complete program for a request in one language (text, `\n` line ends, ending with a newline).
 *
 * @param req from `sampleRequestFromPayload`, `sampleRequestFromExchange` or `sampleRequestFor`.
 * @param language one of {@link SAMPLE_LANGUAGES}.
 * @param options `dotenv`: the program loads that dotenv file itself (a language of `PROGRAM_LANGUAGES` only).
 * @throws SampleRefused for `dotenv` in another language (its program needs a project or a tool around it).
 */
export function generateSample(req: SampleRequest, language: SampleLanguage, options: SampleOptions = {}): string {
  if (options.dotenv !== undefined && !isProgramLanguage(language)) throw new SampleRefused(`A ${SAMPLE_LANGUAGE_INFO[language].label} program does not load a dotenv file itself: it needs a project or a tool around it. Copy as Code gives its program.`);
  return GENERATORS[language](req, options);
}
