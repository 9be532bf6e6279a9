import { bodyJson, headerLines, pyLiteral, TOKEN_LIFETIME_SECONDS, urlExpression } from '../literals';
import { audienceEnvOf, SAMPLE_ENV, type SampleRequest } from '../request';

/**
 * A Python 3 program: the token minted with PyJWT (ES256/384/512 from the key's curve, `iat`/`exp` in seconds,
 * `aud` = the base address, `iss` = the Partner ID, `typ` JWT, raw r||s signature; spec: Authentication), then
 * `requests`.
 */
export function pythonSample(req: SampleRequest): string {
  const body = bodyJson(req);
  const url = urlExpression(req, 'base_url', (s) => JSON.stringify(s), (p) => `quote(env(${JSON.stringify(p.env)}), safe="")`);
  return [
    ...headerLines(req, 'python3 tpp_sample.py', 'Python 3.8 or later, requests and PyJWT[crypto] (pip install requests "PyJWT[crypto]")').map((l) => `# ${l}`),
    'import os',
    'import sys',
    'import time',
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
    ...(body !== undefined ? [`body = ${pyLiteral(req.body)}`, ''] : []),
    'response = requests.request(',
    `    "${req.method}",`,
    `    ${url},`,
    `    headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},`,
    ...(body !== undefined ? ['    json=body,'] : []),
    '    timeout=30,',
    ')',
    'print(f"HTTP {response.status_code}")',
    'print(response.text)',
    'sys.exit(0 if 200 <= response.status_code < 300 else 1)',
    '',
  ].join('\n');
}
