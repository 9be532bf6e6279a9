import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, verify } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSample, SAMPLE_LANGUAGE_INFO, type SampleLanguage, type SampleRequest, sampleRequestFor, sampleRequestFromPayload } from '../../src/core/samples';
import { findTool, removeDir, ROOT, scratchDir } from './harness';

// So that every code sample is known to build (README, Code samples): the languages CI cannot run against the sandbox are compiled or syntax-checked with the toolchains
// Debian packages (.ci/run installs golang-go and php-cli; the JDK is there already); each check that cannot run says
// why. Every language also gets the requests whose literals are hardest to write (quotes, backslashes, backticks,
// `"""`, `$`, newlines and non-ASCII in the body; a path part from an environment variable; a query).

function requests(): Record<string, SampleRequest> {
  const reg = JSON.parse(readFileSync(join(ROOT, 'examples/tire-protection-registration.json'), 'utf8')) as { customer: { name: string } };
  reg.customer.name = `O'Kafor "Dan" \`tire\` \\ $HOME """ {x} #{y} \${z} line\nbreak\ttab Zoë ✓ \u0001`;
  const claim = JSON.parse(readFileSync(join(ROOT, 'examples/tire-protection-claim.json'), 'utf8')) as Record<string, unknown>;
  delete claim.$registrationId;
  const v2 = JSON.parse(readFileSync(join(ROOT, 'examples/v2-sales.json'), 'utf8')) as unknown;
  return {
    create: sampleRequestFromPayload(reg, 'registration.json'),
    claim: sampleRequestFromPayload(claim, 'claim.json'),
    read: sampleRequestFor('getTireProtectionRegistration'),
    list: sampleRequestFor('listTireProtectionRegistrations', {}, { invoiceNumber: 'INV 1&2/é', pageSize: '5' }),
    v2: sampleRequestFromPayload(v2, 'v2-sales.json'),
  };
}

function check(cmd: string, args: string[], cwd: string): { status: number | null; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 120000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('code samples compile or pass a syntax check in every language', function () {
  this.timeout(180000);
  let dir: string;
  const reqs = requests();

  before(() => {
    dir = scratchDir();
  });
  after(() => removeDir(dir));

  /** Writes each request's sample of `lang` to dir/<lang>/<request>/<file>; returns the file paths. */
  function write(lang: SampleLanguage): string[] {
    return Object.entries(reqs).map(([name, req]) => {
      const d = join(dir, lang, name);
      mkdirSync(d, { recursive: true });
      const f = join(d, SAMPLE_LANGUAGE_INFO[lang].fileName);
      writeFileSync(f, generateSample(req, lang));
      return f;
    });
  }

  function eachPasses(lang: SampleLanguage, tool: string, args: (file: string) => string[], expectOut?: RegExp): void {
    for (const f of write(lang)) {
      const r = check(tool, args(f), dir);
      assert.equal(r.status, 0, `${tool} ${args(f).join(' ')}:\n${r.out}`);
      if (expectOut) assert.match(r.out, expectOut, `${tool} on ${f}: ${r.out}`);
    }
  }

  it('curl: bash -n', () => eachPasses('curl', 'bash', (f) => ['-n', f]));
  it('node: node --check', () => eachPasses('node', process.execPath, (f) => ['--check', f]));
  it('python: py_compile', function () {
    const py = findTool(['/usr/bin/python3', 'python3'], ['--version']);
    if (!py) return skip(this, 'no python3 on this machine');
    eachPasses('python', py, (f) => ['-m', 'py_compile', f]);
  });

  it('go: parses and is gofmt-clean (gofmt -l -e)', function () {
    const gofmt = findTool(['gofmt', '/usr/lib/go/bin/gofmt'], ['-h']) ?? findTool(['gofmt'], ['-l', '/dev/null']);
    if (!gofmt) return skip(this, "gofmt not found: install Debian's golang-go (.ci/run does)");
    for (const f of write('go')) {
      const r = check(gofmt, ['-l', '-e', f], dir);
      assert.equal(r.status, 0, r.out);
      assert.equal(r.out, '', `not gofmt-clean or not Go: ${f}\n${check(gofmt, ['-d', f], dir).out}`);
    }
  });

  it('php: php -l', function () {
    const php = findTool(['php'], ['-v']);
    if (!php) return skip(this, "php not found: install Debian's php-cli (.ci/run does)");
    eachPasses('php', php, (f) => ['-l', f], /No syntax errors detected/);
  });

  it('php: the ES512 path (firebase/php-jwt has no ES512) makes tokens with a valid raw P-521 signature', function () {
    const php = findTool(['php'], ['-v']);
    if (!php) return skip(this, "php not found: install Debian's php-cli (.ci/run does)");
    const fn = /^function es512[\s\S]*?^}$/m.exec(generateSample(reqs.read!, 'php'))?.[0];
    assert.ok(fn, 'the PHP sample has its es512 function');
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-521' });
    const pemFile = join(dir, 'p521.pem');
    writeFileSync(pemFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    // Stand-ins for php-jwt's two encoders the function calls (base64url without padding; JSON with unescaped slashes).
    const script = join(dir, 'es512.php');
    writeFileSync(script, [
      '<?php',
      'namespace Firebase\\JWT { class JWT {',
      "  public static function urlsafeB64Encode(string $s): string { return str_replace('=', '', strtr(base64_encode($s), '+/', '-_')); }",
      '  public static function jsonEncode(array $a): string { return json_encode($a, JSON_UNESCAPED_SLASHES); }',
      '} }',
      'namespace {',
      'use Firebase\\JWT\\JWT;',
      fn!,
      `for ($n = 0; $n < 40; $n++) echo es512(['iss' => 'P', 'aud' => 'http://h/api/v3', 'iat' => 1, 'exp' => 2], file_get_contents(${JSON.stringify(pemFile)})), "\\n";`,
      '}',
    ].join('\n'));
    const r = check(php, [script], dir);
    assert.equal(r.status, 0, r.out);
    const tokens = r.out.trim().split('\n');
    assert.equal(tokens.length, 40);
    for (const t of tokens) {
      const [h, c, sig] = t.split('.') as [string, string, string];
      assert.deepEqual(JSON.parse(Buffer.from(h, 'base64url').toString()), { typ: 'JWT', alg: 'ES512' });
      assert.deepEqual(JSON.parse(Buffer.from(c, 'base64url').toString()), { iss: 'P', aud: 'http://h/api/v3', iat: 1, exp: 2 });
      const raw = Buffer.from(sig, 'base64url');
      assert.equal(raw.length, 132, 'raw r||s, 66 bytes each (not DER)');
      assert.ok(verify('sha512', Buffer.from(`${h}.${c}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, raw), t);
    }
  });

  it('java: javac parses it (parse only: Debian packages no nimbus-jose-jwt jar to compile against)', function () {
    const javac = findTool(['javac'], ['-version']);
    if (!javac) return skip(this, "javac not found: install Debian's default-jdk-headless");
    console.log("      note: Java is parsed, not compiled: Debian has no libnimbus-jose-jwt-java package, and nothing is downloaded at test time");
    eachPasses('java', javac, (f) => ['-XDshould-stop.ifNoError=PARSE', '-XDshould-stop.ifError=PARSE', '-d', join(dir, 'java-out'), f]);
  });

  it('csharp: skipped, with the reason', function () {
    skip(this, 'dotnet is not packaged by Debian, and nothing is downloaded at test time: the C# sample is not compiled here');
  });
});

function skip(ctx: Mocha.Context, why: string): void {
  console.log(`      skipped: ${why}`);
  ctx.skip();
}
