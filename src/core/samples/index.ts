/**
 * Code samples: the same request in curl, Node, Python, C#, Java, Go and PHP, each a complete program that
 * mints a fresh partner JWT as the spec's Authentication section requires (ES256/384/512 from the key's curve,
 * `iat`/`exp` in Unix seconds, `aud` = the base address exactly, `iss` = the Partner ID, raw r||s signature) and
 * reads its configuration from `TPP_BASE_URL`, `TPP_PARTNER_ID` and `TPP_PRIVATE_KEY_FILE`; none embeds a key or a
 * token. Shared by `tpp code` and the editor's Copy as Code. No editor, no I/O.
 */
import { csharpSample } from './languages/csharp';
import { curlSample } from './languages/curl';
import { goSample } from './languages/go';
import { javaSample } from './languages/java';
import { nodeSample } from './languages/node';
import { phpSample } from './languages/php';
import { pythonSample } from './languages/python';
import type { SampleRequest } from './request';

export { envParam, RECORD_ENV, SAMPLE_ENV, SampleRefused, sampleRequestFor, sampleRequestFromExchange, sampleRequestFromPayload } from './request';
export type { PathPart, SampleRequest } from './request';

/** The languages, in the order they are offered. */
export const SAMPLE_LANGUAGES = ['curl', 'node', 'python', 'csharp', 'java', 'go', 'php'] as const;
export type SampleLanguage = (typeof SAMPLE_LANGUAGES)[number];

/** What each language is called, its libraries, and the file name the sample expects. */
export const SAMPLE_LANGUAGE_INFO: Readonly<Record<SampleLanguage, { readonly label: string; readonly detail: string; readonly fileName: string; readonly editorLanguage: string }>> = {
  curl: { label: 'curl', detail: 'bash + curl, token from tpp jwt mint', fileName: 'tpp-sample.sh', editorLanguage: 'shellscript' },
  node: { label: 'Node.js', detail: 'fetch + jose', fileName: 'tpp-sample.js', editorLanguage: 'javascript' },
  python: { label: 'Python', detail: 'requests + PyJWT[crypto]', fileName: 'tpp_sample.py', editorLanguage: 'python' },
  csharp: { label: 'C#', detail: 'HttpClient + System.Security.Cryptography.ECDsa', fileName: 'Program.cs', editorLanguage: 'csharp' },
  java: { label: 'Java', detail: 'java.net.http + nimbus-jose-jwt', fileName: 'TppSample.java', editorLanguage: 'java' },
  go: { label: 'Go', detail: 'net/http + github.com/golang-jwt/jwt/v5', fileName: 'main.go', editorLanguage: 'go' },
  php: { label: 'PHP', detail: 'Guzzle + firebase/php-jwt', fileName: 'tpp-sample.php', editorLanguage: 'php' },
};

const GENERATORS: Readonly<Record<SampleLanguage, (req: SampleRequest) => string>> = {
  curl: curlSample,
  node: nodeSample,
  python: pythonSample,
  csharp: csharpSample,
  java: javaSample,
  go: goSample,
  php: phpSample,
};

/** Whether `s` names a sample language. */
export function isSampleLanguage(s: string): s is SampleLanguage {
  return (SAMPLE_LANGUAGES as readonly string[]).includes(s);
}

/**
 * The complete program for a request in one language (text, `\n` line ends, ending with a newline).
 *
 * @param req from `sampleRequestFromPayload`, `sampleRequestFromExchange` or `sampleRequestFor`.
 * @param language one of {@link SAMPLE_LANGUAGES}.
 */
export function generateSample(req: SampleRequest, language: SampleLanguage): string {
  return GENERATORS[language](req);
}
