/**
 * What `tpp run` says about a file before it sends (docs/flows.md, Variables; Running): a file's own `@baseUrl` is
 * replaced by the environment's and one line per file says so; a `# @prompt` value comes from `--var` (the editor asks
 * through the run's `prompt` hook), `{{$processEnv}}` from the process; what is missing is named before anything is
 * sent (exit 2). Basic credentials the two tools would encode differently are refused when they are known.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runRunCommand } from '../../../src/cli/commands/run';
import { authorizationValue } from '../../../src/core/flows/authorization';
import { parseFlow } from '../../../src/core/flows/parse';
import { runFlow } from '../../../src/core/flows/run';
import type { FlowEnvironment, FlowPrompt, FlowRequest } from '../../../src/core/flows/types';
import { generateKeyMaterial } from '../../../src/core/jwt/keys';
import { startEcho, type Echo } from './compat/echo';

describe('flows: what tpp run says before sending (the environment, prompts, the process environment)', () => {
  let echo: Echo;
  let dir: string;
  const base = 'https://environment.invalid/api/v3';
  const cli = async (text: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}) => {
    writeFileSync(join(dir, 'f.http'), text);
    let out = '';
    let err = '';
    const code = await runRunCommand(['f.http', '--base-url', base, '--iss', 'P-1', '--key', join(dir, 'key.pem'), '--allow-host', '127.0.0.1', ...extra], { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } }, env, dir);
    return { code, out, err };
  };

  before(async () => {
    echo = await startEcho();
    dir = mkdtempSync(join(tmpdir(), 'tpp-prompts-'));
    writeFileSync(join(dir, 'key.pem'), (await generateKeyMaterial('P-256')).pkcs8Pem);
  });
  after(async () => {
    await echo.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => (echo.received.length = 0));

  it("a file's own @baseUrl is replaced by the environment's, and one line says so", async () => {
    const r = await cli(`@baseUrl = http://127.0.0.1:9/api/v3\n@partnerId = P-OTHER\n\nGET ${echo.origin}/ping\n`);
    assert.equal(r.code, 0, r.err);
    const notes = r.err.split('\n').filter((l) => l.includes('note:'));
    assert.deepEqual(notes, [`f.http:1:1: note: @baseUrl, @partnerId of this file are replaced by the environment's: {{baseUrl}} is ${base}, {{partnerId}} is P-1 (tpp run sends to the environment it runs on and signs for it).`]);
    const same = await cli(`@baseUrl = ${base}\n\nGET ${echo.origin}/ping\n`);
    assert.doesNotMatch(same.err, /note:/, 'a value that is the environment\'s is not worth a line');
  });

  it('# @prompt takes its value from --var; without it, tpp run names the variable and the flag and sends nothing', async () => {
    const text = `# @prompt dealer The dealer number\nGET ${echo.origin}/dealers/{{dealer}}\n`;
    const missing = await cli(text);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /f\.http:1:3: error: # @prompt dealer asks for the value of \{\{dealer\}\} when the request is sent; tpp run asks nothing: give it with --var dealer=<value> \(tpp run\) or the setting tpp\.variables \(the editor\)\./);
    assert.equal(echo.received.length, 0);
    const given = await cli(text, ['--var', 'dealer=D-9']);
    assert.equal(given.code, 0, given.err);
    assert.equal(echo.received[0]?.target, '/dealers/D-9');
  });

  it('{{$processEnv NAME}} reads the process environment; a name that is not set stops the run before sending', async () => {
    const text = `GET ${echo.origin}/keys\nX-Key: {{$processEnv TPP_TEST_KEY}}\n`;
    const missing = await cli(text);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /\{\{\$processEnv TPP_TEST_KEY\}\}: the environment variable TPP_TEST_KEY is not set/);
    assert.equal(echo.received.length, 0);
    const set = await cli(text, [], { TPP_TEST_KEY: 'k-1' });
    assert.equal(set.code, 0, set.err);
    assert.deepEqual(echo.received[0]?.headers.find(([n]) => n.toLowerCase() === 'x-key'), ['X-Key', 'k-1']);
  });

  it("the editor's prompt hook is asked once per # @prompt when its request runs; cancelling sends nothing", async () => {
    const environment: FlowEnvironment = { id: 'local', baseUrl: base };
    const flow = parseFlow(`# @prompt dealer The dealer number\nGET ${echo.origin}/dealers/{{dealer}}\n`, 'p.http');
    const asked: string[] = [];
    const prompt = (r: FlowRequest, p: FlowPrompt, initial: string | undefined) => {
      asked.push(`${r.label}|${p.name}|${p.description}|${initial}`);
      return Promise.resolve<string | undefined>('D-5');
    };
    const answered = await runFlow(flow, { environment, variables: { dealer: 'D-0' }, prompt, hosts: { allowed: ['127.0.0.1'] }, readFile: () => Promise.reject(new Error('no files')) });
    assert.equal(answered[0]?.outcome, 'passed', answered[0]?.message);
    assert.deepEqual(asked, [`GET ${echo.origin}/dealers/{{dealer}}|dealer|The dealer number|D-0`]);
    assert.equal(echo.received[0]?.target, '/dealers/D-5', 'the answer wins over the setting');
    const cancelled = await runFlow(flow, { environment, prompt: () => Promise.resolve(undefined), hosts: { allowed: ['127.0.0.1'] }, readFile: () => Promise.reject(new Error('no files')) });
    assert.deepEqual([cancelled[0]?.outcome, cancelled[0]?.message], ['skipped', 'Not sent: the value of # @prompt dealer was not given.']);
    assert.equal(echo.received.length, 1);
  });

  it('Basic credentials: base64 of user:password as both tools send them; values they would split differently are refused', () => {
    assert.equal(authorizationValue('Basic doe 12345678'), 'Basic ZG9lOjEyMzQ1Njc4');
    assert.equal(authorizationValue('basic doe:12345678'), 'Basic ZG9lOjEyMzQ1Njc4');
    assert.equal(authorizationValue('Basic doe pass word'), `Basic ${Buffer.from('doe:pass word').toString('base64')}`);
    assert.equal(authorizationValue('Basic ZG9lOjEyMzQ1Njc4'), 'Basic ZG9lOjEyMzQ1Njc4', 'one word without a colon is already encoded');
    assert.equal(authorizationValue('Bearer abc'), 'Bearer abc');
    for (const [value, why] of [
      ['Basic doe a:b', /both a space and a colon/],
      ['Basic a:b:c', /more than one colon/],
      ['Basic :secret', /an empty user name/],
      ['Basic doe two  spaces', /several spaces in a row/],
    ] as const) {
      const v = authorizationValue(value);
      assert.ok(typeof v !== 'string' && why.test(v.refused), `${value}: ${JSON.stringify(v)}`);
    }
  });
});
