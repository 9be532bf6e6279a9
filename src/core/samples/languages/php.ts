import { bodyJson, FRESH_COMMENT, headerLines, phpSq, TOKEN_LIFETIME_SECONDS, urlExpression } from '../literals';
import { fillStatements, type FreshKind } from '../fresh';
import { audienceEnvOf, SAMPLE_ENV, type SampleRequest } from '../request';

/** A PHP expression of a fresh value (random_int's max is inclusive, $randomInt's is not). */
function freshExpr(v: FreshKind): string {
  if (v.kind === 'guid') return 'uuid4()';
  if (v.kind === 'randomInt') return `random_int(${v.min}, ${v.max - 1})`;
  return `time()${v.offsetSeconds ? ` + ${v.offsetSeconds}` : ''}`;
}

/** `es512($claims, $pem)`: the ES512 JWS firebase/php-jwt cannot make (spec: Authentication). */
const PHP_ES512: readonly string[] = [
  '// firebase/php-jwt signs ES256 and ES384 only: for a P-521 key the same JWS is made here, with the DER signature',
  '// of OpenSSL turned into the raw r||s form (66 bytes each) that ES512 requires.',
  'function es512(array $claims, string $pem): string',
  '{',
  "    $input = JWT::urlsafeB64Encode(JWT::jsonEncode(['typ' => 'JWT', 'alg' => 'ES512'])) . '.' . JWT::urlsafeB64Encode(JWT::jsonEncode($claims));",
  "    openssl_sign($input, $der, $pem, OPENSSL_ALGO_SHA512) || throw new RuntimeException('OpenSSL could not sign.');",
  '    $offset = (ord($der[1]) & 0x80) ? 2 + (ord($der[1]) & 0x7f) : 2; // SEQUENCE { INTEGER r, INTEGER s }',
  "    $raw = '';",
  '    for ($i = 0; $i < 2; $i++) {',
  '        $length = ord($der[$offset + 1]);',
  '        $raw .= str_pad(ltrim(substr($der, $offset + 2, $length), "\\x00"), 66, "\\x00", STR_PAD_LEFT);',
  '        $offset += 2 + $length;',
  '    }',
  "    return $input . '.' . JWT::urlsafeB64Encode($raw);",
  '}',
  '',
];

/**
 * A PHP 8 script: the token signed with firebase/php-jwt (ES256/384 from the key's curve; ES512, which php-jwt lacks, by hand; `iat`/`exp` in
 * seconds, `aud` = the base address, `iss` = the Partner ID, `typ` JWT, raw r||s signature; spec: Authentication),
 * then Guzzle.
 */
export function phpSample(req: SampleRequest): string {
  const body = bodyJson(req);
  const fresh = body !== undefined ? (req.fresh ?? []) : [];
  const fill = fillStatements(fresh, freshExpr, (find, expr) => `$body = fill($body, ${phpSq(find)}, ${expr});`);
  const url = urlExpression(req, '$baseUrl', phpSq, (p) => `rawurlencode(env(${phpSq(p.env)}))`, ' . ');
  return [
    '<?php',
    ...headerLines(req, 'composer require guzzlehttp/guzzle firebase/php-jwt && php tpp-sample.php', 'PHP 8.0 or later with openssl, guzzlehttp/guzzle and firebase/php-jwt').map((l) => `// ${l}`),
    "require __DIR__ . '/vendor/autoload.php';",
    '',
    'use Firebase\\JWT\\JWT;',
    'use GuzzleHttp\\Client;',
    '',
    'function env(string $name): string',
    '{',
    '    $value = getenv($name);',
    "    if ($value === false || $value === '') {",
    '        fwrite(STDERR, "Set the environment variable $name.\\n");',
    '        exit(2);',
    '    }',
    '    return $value;',
    '}',
    '',
    ...(fill.length
      ? [
          '// $text with its first $find replaced by $value.',
          'function fill(string $text, string $find, $value): string',
          '{',
          '    return substr_replace($text, (string) $value, strpos($text, $find), strlen($find));',
          '}',
          '',
        ]
      : []),
    ...(fresh.some((f) => f.value.kind === 'guid')
      ? [
          '// A random (version 4) UUID.',
          'function uuid4(): string',
          '{',
          '    $b = random_bytes(16);',
          '    $b[6] = chr(ord($b[6]) & 0x0f | 0x40);',
          '    $b[8] = chr(ord($b[8]) & 0x3f | 0x80);',
          "    return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($b), 4));",
          '}',
          '',
        ]
      : []),
    ...PHP_ES512,
    `$baseUrl = env('${req.baseEnv}');`,
    `$partnerId = env('${SAMPLE_ENV.partnerId}');`,
    `$audience = getenv('${audienceEnvOf(req)}') ?: $baseUrl; // the real address when $baseUrl is a local proxy`,
    `$pem = file_get_contents(env('${SAMPLE_ENV.privateKeyFile}'));`,
    '$details = openssl_pkey_get_details(openssl_pkey_get_private($pem));',
    "$alg = ['prime256v1' => 'ES256', 'secp384r1' => 'ES384', 'secp521r1' => 'ES512'][$details['ec']['curve_name'] ?? ''] ?? null;",
    'if ($alg === null) {',
    `    fwrite(STDERR, "${SAMPLE_ENV.privateKeyFile} must hold an EC private key on P-256, P-384 or P-521.\\n");`,
    '    exit(2);',
    '}',
    '',
    '// A fresh token for this request: iat and exp in seconds, aud = the base address exactly (or its audience variable), iss = the Partner ID.',
    '$now = time();',
    `$claims = ['iss' => $partnerId, 'aud' => $audience, 'iat' => $now, 'exp' => $now + ${TOKEN_LIFETIME_SECONDS}];`,
    "$token = $alg === 'ES512' ? es512($claims, $pem) : JWT::encode($claims, $pem, $alg);",
    '',
    ...(body !== undefined ? ["$body = <<<'JSON'", body, 'JSON;', ...(fill.length ? [`// ${FRESH_COMMENT}`, ...fill] : []), ''] : []),
    '$client = new Client();',
    `$response = $client->request(${phpSq(req.method)}, ${url}, [`,
    "    'headers' => [",
    "        'Authorization' => \"Bearer $token\",",
    "        'Accept' => 'application/json',",
    ...(body !== undefined ? ["        'Content-Type' => 'application/json',"] : []),
    '    ],',
    ...(body !== undefined ? ["    'body' => $body,"] : []),
    "    'http_errors' => false,",
    ']);',
    '$status = $response->getStatusCode();',
    'echo "HTTP $status\\n", $response->getBody(), "\\n";',
    'exit($status >= 200 && $status < 300 ? 0 : 1);',
    '',
  ].join('\n');
}
