import { bodyJson, FRESH_COMMENT, headerLines, TOKEN_LIFETIME_SECONDS, urlExpression } from '../literals';
import { fillStatements, type FreshKind } from '../fresh';
import { audienceEnvOf, SAMPLE_ENV, type SampleOptions, type SampleRequest } from '../request';

/** A JavaScript expression of a fresh value (node:crypto's randomUUID and randomInt: max exclusive, as $randomInt). */
function freshExpr(v: FreshKind): string {
  if (v.kind === 'guid') return 'randomUUID()';
  if (v.kind === 'randomInt') return `randomInt(${v.min}, ${v.max})`;
  return `Math.floor(Date.now() / 1000)${v.offsetSeconds ? ` + ${v.offsetSeconds}` : ''}`;
}

/**
 * A Node.js 18+ program: the token minted with `jose` (ES256/384/512 from the key's curve, `iat`/`exp` in seconds,
 * `aud` = the base address, `iss` = the Partner ID, `typ` JWT; spec: Authentication), then `fetch`. It has no
 * top-level import, so it runs as a `.js` or an `.mjs` file alike. With `options.dotenv` it first loads that dotenv
 * file (beside it) with Node's own loader, `process.loadEnvFile` (Node.js 20.12+; variables already set win), so that
 * `node tpp-sample.js` runs it.
 */
export function nodeSample(req: SampleRequest, options: SampleOptions = {}): string {
  const body = bodyJson(req);
  const url = urlExpression(req, 'baseUrl', (s) => JSON.stringify(s), (p) => `encodeURIComponent(env(${JSON.stringify(p.env)}))`);
  const fresh = req.fresh ?? [];
  const fill = fillStatements(fresh, freshExpr, (find, expr) => `  bodyText = bodyText.replace(${JSON.stringify(find)}, () => String(${expr}));`);
  const headers = ["Authorization: `Bearer ${token}`", "Accept: 'application/json'", ...(body !== undefined ? ["'Content-Type': 'application/json'"] : [])];
  return [
    ...headerLines(req, 'node tpp-sample.js', `Node.js ${options.dotenv !== undefined ? '20.12' : '18'} or later and jose (npm install jose)`, options.dotenv).map((l) => `// ${l}`),
    '',
    'main().catch((err) => {',
    '  console.error(err instanceof Error ? err.message : err);',
    '  process.exit(2);',
    '});',
    '',
    'async function main() {',
    "  const { readFileSync } = await import('node:fs');",
    `  const { createPrivateKey${fresh.some((f) => f.value.kind === 'guid') ? ', randomUUID' : ''}${fresh.some((f) => f.value.kind === 'randomInt') ? ', randomInt' : ''} } = await import('node:crypto');`,
    "  const { SignJWT } = await import('jose');",
    ...(options.dotenv !== undefined
      ? [
          "  const { dirname, join } = await import('node:path');",
          `  // The settings of Connect Your Application, from ${options.dotenv} beside this program (Node's own loader).`,
          `  process.loadEnvFile(join(dirname(process.argv[1]), ${JSON.stringify(options.dotenv)}));`,
        ]
      : []),
    '  const env = (name) => {',
    '    const value = process.env[name];',
    '    if (!value) throw new Error(`Set the environment variable ${name}.`);',
    '    return value;',
    '  };',
    `  const baseUrl = env('${req.baseEnv}');`,
    `  const partnerId = env('${SAMPLE_ENV.partnerId}');`,
    `  const audience = process.env.${audienceEnvOf(req)} || baseUrl; // the real address when baseUrl is a local proxy`,
    `  const key = createPrivateKey(readFileSync(env('${SAMPLE_ENV.privateKeyFile}')));`,
    "  const alg = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' }[key.asymmetricKeyDetails?.namedCurve];",
    `  if (!alg) throw new Error('${SAMPLE_ENV.privateKeyFile} must hold an EC private key on P-256, P-384 or P-521.');`,
    '',
    '  // A fresh token for this request: iat and exp in seconds, aud = the base address exactly (or its audience variable), iss = the Partner ID.',
    '  const iat = Math.floor(Date.now() / 1000);',
    '  const token = await new SignJWT({})',
    "    .setProtectedHeader({ alg, typ: 'JWT' })",
    '    .setIssuer(partnerId)',
    '    .setAudience(audience)',
    '    .setIssuedAt(iat)',
    `    .setExpirationTime(iat + ${TOKEN_LIFETIME_SECONDS})`,
    '    .sign(key);',
    '',
    ...(body !== undefined ? [`  const body = ${body.replace(/\n/g, '\n  ')};`] : []),
    ...(body !== undefined && fill.length ? ['  let bodyText = JSON.stringify(body);', `  // ${FRESH_COMMENT}`, ...fill] : []),
    ...(body !== undefined ? [''] : []),
    `  const response = await fetch(${url}, {`,
    `    method: '${req.method}',`,
    `    headers: { ${headers.join(', ')} },`,
    ...(body !== undefined ? [fill.length ? '    body: bodyText,' : '    body: JSON.stringify(body),'] : []),
    '  });',
    '  console.log(`HTTP ${response.status}`);',
    '  console.log(await response.text());',
    '  if (!response.ok) process.exitCode = 1;',
    '}',
    '',
  ].join('\n');
}
