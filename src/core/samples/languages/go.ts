import { bodyJson, dq, FRESH_COMMENT, headerLines, TOKEN_LIFETIME_SECONDS, urlExpression } from '../literals';
import { fillStatements, type FreshKind } from '../fresh';
import { audienceEnvOf, SAMPLE_ENV, type SampleRequest } from '../request';

/** A Go expression of a fresh value (newUUID and randomInt are the program's own helpers, from crypto/rand). */
function freshExpr(v: FreshKind): string {
  if (v.kind === 'guid') return 'newUUID()';
  if (v.kind === 'randomInt') return `randomInt(${v.min}, ${v.max})`;
  return `time.Now().Unix()${v.offsetSeconds ? ` + ${v.offsetSeconds}` : ''}`;
}

/** The helpers the fresh values of a Go program call. */
function freshHelpers(kinds: ReadonlySet<FreshKind['kind']>): string[] {
  return [
    ...(kinds.has('guid')
      ? [
          '// newUUID returns a random (version 4) UUID.',
          'func newUUID() string {',
          '	b := make([]byte, 16)',
          '	if _, err := rand.Read(b); err != nil {',
          '		fail(err)',
          '	}',
          '	b[6] = b[6]&0x0f | 0x40',
          '	b[8] = b[8]&0x3f | 0x80',
          '	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])',
          '}',
          '',
        ]
      : []),
    ...(kinds.has('randomInt')
      ? [
          '// randomInt returns a random whole number from lo (inclusive) to hi (exclusive).',
          'func randomInt(lo, hi int64) int64 {',
          '	n, err := rand.Int(rand.Reader, big.NewInt(hi-lo))',
          '	if err != nil {',
          '		fail(err)',
          '	}',
          '	return lo + n.Int64()',
          '}',
          '',
        ]
      : []),
  ];
}

/** `env(name)` (a required environment variable) and `fail(err)` (exit 2) of every Go sample. */
const GO_ENV_HELPERS: readonly string[] = [
  'func env(name string) string {',
  '\tvalue := os.Getenv(name)',
  '\tif value == "" {',
  '\t\tfail(fmt.Errorf("set the environment variable %s", name))',
  '\t}',
  '\treturn value',
  '}',
  '',
  'func fail(err error) {',
  '\tfmt.Fprintln(os.Stderr, err)',
  '\tos.Exit(2)',
  '}',
  '',
];

/** Reads the key and signs a fresh token (spec: Authentication): `token` for `main` after `baseURL`. */
function goTokenLines(req: SampleRequest): string[] {
  return [
    `\tpartnerID := env("${SAMPLE_ENV.partnerId}")`,
    `\taudience := os.Getenv("${audienceEnvOf(req)}") // the real address when baseURL is a local proxy`,
    '\tif audience == "" {',
    '\t\taudience = baseURL',
    '\t}',
    `\tpemBytes, err := os.ReadFile(env("${SAMPLE_ENV.privateKeyFile}"))`,
    '\tif err != nil {',
    '\t\tfail(err)',
    '\t}',
    '\tkey, err := jwt.ParseECPrivateKeyFromPEM(pemBytes)',
    '\tif err != nil {',
    '\t\tfail(err)',
    '\t}',
    '\tmethods := map[int]jwt.SigningMethod{256: jwt.SigningMethodES256, 384: jwt.SigningMethodES384, 521: jwt.SigningMethodES512}',
    '\tmethod, ok := methods[key.Curve.Params().BitSize]',
    '\tif !ok {',
    `\t\tfail(fmt.Errorf("${SAMPLE_ENV.privateKeyFile} must hold an EC private key on P-256, P-384 or P-521"))`,
    '\t}',
    '',
    '\t// A fresh token for this request: iat and exp in seconds, aud = the base address exactly (or its audience variable), iss = the Partner ID.',
    '\tnow := time.Now().Unix()',
    `\ttoken, err := jwt.NewWithClaims(method, jwt.MapClaims{"iss": partnerID, "aud": audience, "iat": now, "exp": now + ${TOKEN_LIFETIME_SECONDS}}).SignedString(key)`,
    '\tif err != nil {',
    '\t\tfail(err)',
    '\t}',
    '',
  ];
}

/**
 * A Go program: the token signed with github.com/golang-jwt/jwt/v5 (ES256/384/512 from the key's curve, `iat`/`exp`
 * in seconds, `aud` = the base address as one string, `iss` = the Partner ID, `typ` JWT, raw r||s signature; spec:
 * Authentication), then `net/http`.
 */
export function goSample(req: SampleRequest): string {
  const body = bodyJson(req);
  const url = urlExpression(req, 'baseURL', dq, (p) => `url.PathEscape(env(${dq(p.env)}))`, '+');
  const usesUrl = req.path.some((p) => typeof p !== 'string');
  const fresh = body !== undefined ? (req.fresh ?? []) : [];
  const kinds = new Set(fresh.map((f) => f.value.kind));
  const fill = fillStatements(fresh, freshExpr, (find, expr) => `\tbody = strings.Replace(body, ${dq(find)}, fmt.Sprint(${expr}), 1)`);
  const imports = [...(kinds.size && !(kinds.size === 1 && kinds.has('timestamp')) ? ['crypto/rand'] : []), 'fmt', 'io', ...(kinds.has('randomInt') ? ['math/big'] : []), 'net/http', ...(usesUrl ? ['net/url'] : []), 'os', ...(body !== undefined ? ['strings'] : []), 'time'];
  return [
    ...headerLines(req, 'go mod init tppsample && go get github.com/golang-jwt/jwt/v5 && go run .', 'Go 1.21 or later and github.com/golang-jwt/jwt/v5').map((l) => `// ${l}`),
    '',
    'package main',
    '',
    'import (',
    ...imports.map((m) => `\t"${m}"`),
    '',
    '\t"github.com/golang-jwt/jwt/v5"',
    ')',
    '',
    ...GO_ENV_HELPERS,
    ...freshHelpers(kinds),
    'func main() {',
    `\tbaseURL := env("${req.baseEnv}")`,
    ...goTokenLines(req),
    ...(body !== undefined ? [`\tbody := ${body.includes('`') ? dq(body) : '`' + body + '`'}`] : []),
    ...(fill.length ? [`\t// ${FRESH_COMMENT}`, ...fill] : []),
    `\treq, err := http.NewRequest(${dq(req.method)}, ${url}, ${body !== undefined ? 'strings.NewReader(body)' : 'nil'})`,
    '\tif err != nil {',
    '\t\tfail(err)',
    '\t}',
    '\treq.Header.Set("Authorization", "Bearer "+token)',
    '\treq.Header.Set("Accept", "application/json")',
    ...(body !== undefined ? ['\treq.Header.Set("Content-Type", "application/json")'] : []),
    '\tres, err := http.DefaultClient.Do(req)',
    '\tif err != nil {',
    '\t\tfail(err)',
    '\t}',
    '\tdefer res.Body.Close()',
    '\tanswer, err := io.ReadAll(res.Body)',
    '\tif err != nil {',
    '\t\tfail(err)',
    '\t}',
    '\tfmt.Printf("HTTP %d\\n%s\\n", res.StatusCode, answer)',
    '\tif res.StatusCode/100 != 2 {',
    '\t\tos.Exit(1)',
    '\t}',
    '}',
    '',
  ].join('\n');
}
