/**
 * The languages of the code samples: their names, libraries and file names, apart from the generators so that light
 * modules (program.ts, the editor's pickers) can list them.
 */

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

/** Whether `s` names a sample language. */
export function isSampleLanguage(s: string): s is SampleLanguage {
  return (SAMPLE_LANGUAGES as readonly string[]).includes(s);
}
