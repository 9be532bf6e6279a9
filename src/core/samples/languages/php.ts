import { bodyJson, headerLines, phpSq, TOKEN_LIFETIME_SECONDS, urlExpression } from '../literals';
import { SAMPLE_ENV, type SampleRequest } from '../request';

/**
 * A PHP 8 script: the token signed with firebase/php-jwt (ES256/384/512 from the key's curve, `iat`/`exp` in
 * seconds, `aud` = the base address, `iss` = the Partner ID, `typ` JWT, raw r||s signature; spec: Authentication),
 * then Guzzle.
 */
export function phpSample(req: SampleRequest): string {
  const body = bodyJson(req);
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
    `$baseUrl = env('${req.baseEnv}');`,
    `$partnerId = env('${SAMPLE_ENV.partnerId}');`,
    `$pem = file_get_contents(env('${SAMPLE_ENV.privateKeyFile}'));`,
    '$details = openssl_pkey_get_details(openssl_pkey_get_private($pem));',
    "$alg = ['prime256v1' => 'ES256', 'secp384r1' => 'ES384', 'secp521r1' => 'ES512'][$details['ec']['curve_name'] ?? ''] ?? null;",
    'if ($alg === null) {',
    `    fwrite(STDERR, "${SAMPLE_ENV.privateKeyFile} must hold an EC private key on P-256, P-384 or P-521.\\n");`,
    '    exit(2);',
    '}',
    '',
    '// A fresh token for this request: iat and exp in seconds, aud = the base address exactly, iss = the Partner ID.',
    '$now = time();',
    `$token = JWT::encode(['iss' => $partnerId, 'aud' => $baseUrl, 'iat' => $now, 'exp' => $now + ${TOKEN_LIFETIME_SECONDS}], $pem, $alg);`,
    '',
    ...(body !== undefined ? ["$body = <<<'JSON'", body, 'JSON;', ''] : []),
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
