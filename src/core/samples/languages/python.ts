import { bodyJson, FRESH_COMMENT, headerLines, pyLiteral, TOKEN_LIFETIME_SECONDS, urlExpression } from '../literals';
import { fillStatements, type FreshKind } from '../fresh';
import { audienceEnvOf, SAMPLE_ENV, type SampleOptions, type SampleRequest } from '../request';

/** A Python expression of a fresh value (random.randrange: max exclusive, as $randomInt). */
function freshExpr(v: FreshKind): string {
  if (v.kind === 'guid') return 'uuid.uuid4()';
  if (v.kind === 'randomInt') return `random.randrange(${v.min}, ${v.max})`;
  return `int(time.time())${v.offsetSeconds ? ` + ${v.offsetSeconds}` : ''}`;
}

/**
 * Statements that load the dotenv file `dotenv` (a name relative to the program's folder) before anything reads
 * the variables: Python has no loader of its own, so a few lines of the standard library read it as python-dotenv
 * does for the files Connect Your Application writes (NAME=value lines, values bare or quoted whole; `#` comments).
 * Variables already set win, as there.
 */
function dotenvLoader(dotenv: string): string[] {
  return [
    'def load_dotenv(path):',
    '    """Sets each NAME=value line of the dotenv file at path that the environment does not set already."""',
    '    with open(path, encoding="utf-8") as f:',
    '        for line in f:',
    '            name, sep, value = line.strip().partition("=")',
    '            if sep and name and not name.startswith("#"):',
    `                quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "'\\""`,
    '                os.environ.setdefault(name, value[1:-1] if quoted else value)',
    '',
    '',
    `# The settings of Connect Your Application, from ${dotenv} beside this program.`,
    `load_dotenv(os.path.join(os.path.dirname(os.path.abspath(__file__)), ${JSON.stringify(dotenv)}))`,
    '',
  ];
}

/**
 * A Python 3 program: the token minted with PyJWT (ES256/384/512 from the key's curve, `iat`/`exp` in seconds,
 * `aud` = the base address, `iss` = the Partner ID, `typ` JWT, raw r||s signature; spec: Authentication), then
 * `requests`. With `options.dotenv` it loads that dotenv file (beside it) first, so that `python3 tpp_sample.py` runs it.
 */
export function pythonSample(req: SampleRequest, options: SampleOptions = {}): string {
  const body = bodyJson(req);
  const url = urlExpression(req, 'base_url', (s) => JSON.stringify(s), (p) => `quote(env(${JSON.stringify(p.env)}), safe="")`);
  const fresh = req.fresh ?? [];
  const fill = body !== undefined ? fillStatements(fresh, freshExpr, (find, expr) => `body_text = body_text.replace(${JSON.stringify(find)}, str(${expr}), 1)`) : [];
  const has = (k: FreshKind['kind']) => fresh.some((f) => f.value.kind === k);
  return [
    ...headerLines(req, 'python3 tpp_sample.py', 'Python 3.8 or later, requests and PyJWT[crypto] (pip install requests "PyJWT[crypto]")', options.dotenv).map((l) => `# ${l}`),
    ...(fill.length ? ['import json'] : []),
    'import os',
    ...(has('randomInt') ? ['import random'] : []),
    'import sys',
    'import time',
    ...(has('guid') ? ['import uuid'] : []),
    'from urllib.parse import quote',
    '',
    'import jwt  # PyJWT',
    'import requests',
    'from cryptography.hazmat.primitives.serialization import load_pem_private_key',
    '',
    '',
    'def env(name):',
    '    value = os.environ.get(name)',
    '    if not value:',
    '        sys.exit(f"Set the environment variable {name}.")',
    '    return value',
    '',
    '',
    ...(options.dotenv !== undefined ? dotenvLoader(options.dotenv) : []),
    `base_url = env("${req.baseEnv}")`,
    `partner_id = env("${SAMPLE_ENV.partnerId}")`,
    `audience = os.environ.get("${audienceEnvOf(req)}") or base_url  # the real address when base_url is a local proxy`,
    `with open(env("${SAMPLE_ENV.privateKeyFile}"), "rb") as f:`,
    '    key = load_pem_private_key(f.read(), password=None)',
    'alg = {"secp256r1": "ES256", "secp384r1": "ES384", "secp521r1": "ES512"}.get(getattr(getattr(key, "curve", None), "name", None))',
    'if alg is None:',
    `    sys.exit("${SAMPLE_ENV.privateKeyFile} must hold an EC private key on P-256, P-384 or P-521.")`,
    '',
    '# A fresh token for this request: iat and exp in seconds, aud = the base address exactly (or its audience variable), iss = the Partner ID.',
    'now = int(time.time())',
    'token = jwt.encode(',
    `    {"iss": partner_id, "aud": audience, "iat": now, "exp": now + ${TOKEN_LIFETIME_SECONDS}},`,
    '    key,',
    '    algorithm=alg,',
    '    headers={"typ": "JWT"},',
    ')',
    '',
    ...(body !== undefined ? [`body = ${pyLiteral(req.body)}`] : []),
    ...(fill.length ? ['body_text = json.dumps(body)', `# ${FRESH_COMMENT}`, ...fill] : []),
    ...(body !== undefined ? [''] : []),
    'response = requests.request(',
    `    "${req.method}",`,
    `    ${url},`,
    `    headers={"Authorization": f"Bearer {token}", "Accept": "application/json"${fill.length ? ', "Content-Type": "application/json"' : ''}},`,
    ...(body !== undefined ? [fill.length ? '    data=body_text.encode("utf-8"),' : '    json=body,'] : []),
    '    timeout=30,',
    ')',
    'print(f"HTTP {response.status_code}")',
    'print(response.text)',
    'sys.exit(0 if 200 <= response.status_code < 300 else 1)',
    '',
  ].join('\n');
}
