// The "current Unix time in seconds" of a fix sentence, in the language of the program that sent the request (spec:
// Authentication: iat and exp are NumericDate, seconds). A diagnosis read by a Python developer should not answer in
// JavaScript; the language is taken from the request's User-Agent, the one thing every HTTP client says about itself.

/** A language a fix sentence can be worded in. */
export type ClientLanguage = 'python' | 'java' | 'dotnet' | 'go' | 'php' | 'node' | 'curl';

/** User-Agent prefixes of the common HTTP clients of each language, tried in order (first match wins). */
const AGENTS: readonly (readonly [RegExp, ClientLanguage])[] = [
  [/^(python-requests|python-urllib|python-httpx|aiohttp|urllib3)\b/i, 'python'],
  [/^(okhttp|java|apache-httpclient|jersey|resteasy)\b/i, 'java'],
  [/^(restsharp|dotnet|microsoft[ .-]?net|\.net)\b|\.net\b/i, 'dotnet'],
  [/^go-http-client\b/i, 'go'],
  [/^(guzzlehttp|guzzle|php)\b/i, 'php'],
  [/^(node|undici|axios|node-fetch|got|ky)\b/i, 'node'],
  [/^curl\b/i, 'curl'],
];

/** The language a User-Agent names (e.g. `python-requests/2.32.3` → `python`); undefined when none is known. */
export function languageOfUserAgent(userAgent: string | undefined): ClientLanguage | undefined {
  const ua = userAgent?.trim();
  if (!ua) return undefined;
  return AGENTS.find(([re]) => re.test(ua))?.[1];
}

/** The expression for the current Unix time in whole seconds, per language. */
const SECONDS_NOW: Readonly<Record<ClientLanguage, string>> = {
  python: 'int(time.time()) in Python',
  java: 'Instant.now().getEpochSecond() in Java',
  dotnet: 'DateTimeOffset.UtcNow.ToUnixTimeSeconds() in .NET',
  go: 'time.Now().Unix() in Go',
  php: 'time() in PHP',
  node: 'Math.floor(Date.now() / 1000) in Node.js',
  curl: '$(date +%s) in the shell',
};

/**
 * How to get the current Unix time in seconds, worded for the client the User-Agent names, e.g.
 * `use int(time.time()) in Python`; language-neutral when it names none (`use the Unix time in whole seconds: …`).
 */
export function secondsNowFix(userAgent: string | undefined): string {
  const lang = languageOfUserAgent(userAgent);
  return lang ? `use ${SECONDS_NOW[lang]}` : 'use the current Unix time in whole seconds (milliseconds divided by 1000, rounded down)';
}
