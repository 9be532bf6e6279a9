import { bodyJson, headerLines, shellWord, urlExpression } from '../literals';
import { audienceEnvOf, SAMPLE_ENV, type SampleRequest } from '../request';

/**
 * A bash script: the token from `tpp jwt mint` (ES256/384/512 from the key's curve, `iat`/`exp` in seconds, `aud` =
 * the base address, `iss` = the Partner ID; spec: Authentication), then one curl call.
 */
export function curlSample(req: SampleRequest): string {
  const body = bodyJson(req);
  const url = urlExpression(req, `"$${req.baseEnv}"`, (s) => shellWord(s), (p) => `"$${p.env}"`, '');
  const lines = [
    '#!/usr/bin/env bash',
    ...headerLines(req, 'bash tpp-sample.sh', 'bash, curl and the tpp command (npm package tire-protection-partner-toolkit)').map((l) => `# ${l}`),
    'set -euo pipefail',
    ...[req.baseEnv, SAMPLE_ENV.partnerId, SAMPLE_ENV.privateKeyFile, ...req.path.flatMap((p) => (typeof p === 'string' ? [] : [p.env]))]
      .filter((v, i, a) => a.indexOf(v) === i)
      .map((v) => `: "\${${v}:?set ${v}}"`),
    '',
    '# A fresh token for this request (aud: the audience variable when the base address is a local proxy).',
    `token="$(tpp jwt mint --key "$${SAMPLE_ENV.privateKeyFile}" --iss "$${SAMPLE_ENV.partnerId}" --aud "\${${audienceEnvOf(req)}:-$${req.baseEnv}}")"`,
    'out="$(mktemp)"',
    "trap 'rm -f \"$out\"' EXIT",
    '',
  ];
  const opts = [`curl --silent --show-error --output "$out" --write-out '%{http_code}' --request ${req.method}`, '--header "Authorization: Bearer $token"', "--header 'Accept: application/json'"];
  if (body !== undefined) opts.push("--header 'Content-Type: application/json'", '--data-binary @-');
  opts.push(url);
  lines.push(`status="$(${opts.join(' \\\n  ')}${body !== undefined ? ` <<'JSON'\n${body}\nJSON\n` : ''})"`);
  lines.push('', 'echo "HTTP $status"', 'cat "$out"; echo', '[[ "$status" == 2?? ]] || exit 1', '');
  return lines.join('\n');
}
