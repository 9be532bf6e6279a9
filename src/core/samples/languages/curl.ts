import { bodyJson, FRESH_COMMENT, headerLines, shellWord, urlExpression } from '../literals';
import { fillStatements, type FreshKind } from '../fresh';
import { audienceEnvOf, SAMPLE_ENV, type SampleRequest } from '../request';

/** A shell word of a fresh value ($RANDOM gives 15 bits: three make 45, enough for any $randomInt range). */
function freshWord(v: FreshKind): string {
  if (v.kind === 'guid') return '"$(cat /proc/sys/kernel/random/uuid 2>/dev/null || uuidgen | tr A-F a-f)"';
  if (v.kind === 'randomInt') return `"$(( ${v.min} + (RANDOM << 30 | RANDOM << 15 | RANDOM) % ${v.max - v.min} ))"`;
  return v.offsetSeconds ? `"$(( $(date +%s) + ${v.offsetSeconds} ))"` : '"$(date +%s)"';
}

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
  const fill = body !== undefined ? fillStatements(req.fresh ?? [], freshWord, (find, word) => `fill ${shellWord(find)} ${word}`) : [];
  if (fill.length) {
    lines.push(
      "IFS= read -r -d '' body <<'JSON' || true",
      body!,
      'JSON',
      `# ${FRESH_COMMENT}`,
      '# fill FIND VALUE: the first FIND in the body becomes VALUE.',
      'fill() { body="${body/"$1"/"$2"}"; }',
      ...fill,
      '',
    );
  }
  const opts = [`curl --silent --show-error --output "$out" --write-out '%{http_code}' --request ${req.method}`, '--header "Authorization: Bearer $token"', "--header 'Accept: application/json'"];
  if (body !== undefined) opts.push("--header 'Content-Type: application/json'", '--data-binary @-');
  opts.push(url);
  const input = body === undefined ? '' : fill.length ? ` <<<"$body"` : ` <<'JSON'\n${body}\nJSON\n`;
  lines.push(`status="$(${opts.join(' \\\n  ')}${input})"`);
  lines.push('', 'echo "HTTP $status"', 'cat "$out"; echo', '[[ "$status" == 2?? ]] || exit 1', '');
  return lines.join('\n');
}
