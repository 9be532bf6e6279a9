import { strict as assert } from 'node:assert';
import { generateKeyPairSync, sign } from 'node:crypto';
import { languageOfUserAgent, secondsNowFix } from '../../../src/core/jwt/secondsFix';
import { diagnose } from '../../../src/core/requestLog/requestLogDiagnosis';

/**
 * The fix of an `iat` in milliseconds (spec: Authentication, iat and exp are seconds) is worded in the language the
 * request's User-Agent names, and language-neutral otherwise: a Python developer is not told to write JavaScript.
 */
describe('iat fix in the language of the User-Agent', () => {
  const cases: [string, string][] = [
    ['python-requests/2.32.3', 'int(time.time())'],
    ['Python-urllib/3.12', 'int(time.time())'],
    ['Java/21.0.2', 'Instant.now().getEpochSecond()'],
    ['okhttp/4.12.0', 'Instant.now().getEpochSecond()'],
    ['RestSharp/110.2.0.0', 'DateTimeOffset.UtcNow.ToUnixTimeSeconds()'],
    ['Go-http-client/1.1', 'time.Now().Unix()'],
    ['GuzzleHttp/7', 'time()'],
    ['node', 'Math.floor(Date.now() / 1000)'],
    ['undici', 'Math.floor(Date.now() / 1000)'],
    ['axios/1.7.2', 'Math.floor(Date.now() / 1000)'],
    ['curl/8.5.0', '$(date +%s)'],
  ];
  for (const [ua, expr] of cases) it(`${ua} → ${expr}`, () => assert.ok(secondsNowFix(ua).includes(expr), secondsNowFix(ua)));

  it('an unknown or missing User-Agent gets a language-neutral sentence, with no code of any language', () => {
    for (const ua of [undefined, '', 'Mozilla/5.0', 'my-app/1.0']) {
      assert.equal(languageOfUserAgent(ua), undefined, String(ua));
      assert.match(secondsNowFix(ua), /Unix time in whole seconds/);
      assert.doesNotMatch(secondsNowFix(ua), /Date\.now|time\.time|\(\)/);
    }
  });

  it('the 401 diagnosis of a token with iat in milliseconds uses it', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const input = `${b64({ alg: 'ES256', typ: 'JWT' })}.${b64({ iat: now * 1000, exp: now + 300, iss: 'p1', aud: 'http://127.0.0.1:1/api/v3' })}`;
    const jwt = `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
    const iatMessage = async (userAgent?: string) => {
      const items = await diagnose({ status: 401, method: 'GET', authorization: `Bearer ${jwt}`, userAgent, audience: 'http://127.0.0.1:1/api/v3', nowSeconds: now, keyOf: (iss) => (iss === 'p1' ? publicKey : undefined), partnerIds: () => ['p1'] });
      return items.find((i) => i.rule === 'iat')?.message ?? '';
    };
    const python = await iatMessage('python-requests/2.32.3');
    assert.match(python, /^iat is in milliseconds, not seconds: use int\(time\.time\(\)\) in Python\./);
    assert.doesNotMatch(python, /Date\.now/);
    assert.match(await iatMessage('node'), /Math\.floor\(Date\.now\(\) \/ 1000\) in Node\.js/);
    assert.match(await iatMessage(undefined), /^iat is in milliseconds, not seconds: use the current Unix time in whole seconds/);
  });
});
