// Write Program… and Run in Terminal in a real extension host (README, First steps 4): the program is written beside
// the payload with the environment's dotenv file (Connect Your Application's, written first when missing), never
// over another file; a Local dotenv file written for another sandbox or key is not used without the user's word; Run
// in Terminal runs the program from its folder in a terminal of its own. Running the program as a person does is the
// UI tier's (test/ui/readmePath.test.ts); the programs' text and their loaders, the unit tier's.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateExtension } from '../shared/extension';
import { until } from '../shared/driver';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
const FILES = ['tpp_sample.py', 'tpp_sample_2.py', 'tpp-sample.js', 'tpp-local.env', 'tpp-local-key.pem'];

interface Written {
  readonly file: string;
  readonly dotenvFile: string;
  readonly language: string;
  readonly command: string;
}

describe('Write Program… and Run in Terminal', function () {
  this.timeout(120_000);
  let dir = '';
  const example = () => vscode.Uri.file(path.join(dir, 'tire-protection-registration.json'));
  const clean = () => {
    for (const f of FILES) fs.rmSync(path.join(dir, f), { force: true });
  };

  before(async () => {
    const api = await activateExtension();
    dir = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    clean();
    await cmd('tpp.selectEnvironment', 'local');
    await cmd('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
    await api.api.target('local');
  });

  after(async () => {
    for (const t of vscode.window.terminals) if (t.name.startsWith('Tire Protection: ')) t.dispose();
    await cmd('workbench.action.closeAllEditors');
    clean();
  });

  it('writes the program beside the payload with its dotenv file and Local key file, and opens it', async () => {
    const w = await cmd<Written>('tpp.writeProgram', example(), 'python');
    assert.ok(w, 'the command wrote a program');
    assert.equal(w.file, path.join(dir, 'tpp_sample.py'));
    assert.equal(w.dotenvFile, path.join(dir, 'tpp-local.env'));
    assert.equal(w.command, process.platform === 'win32' ? 'python tpp_sample.py' : 'python3 tpp_sample.py');
    const text = fs.readFileSync(w.file, 'utf8');
    assert.match(text, /^load_dotenv\(os\.path\.join\(os\.path\.dirname\(os\.path\.abspath\(__file__\)\), "tpp-local\.env"\)\)$/m);
    assert.doesNotMatch(text, /-----BEGIN|eyJ[\w-]+\.eyJ/, 'no key and no token in the program');
    const dotenv = fs.readFileSync(w.dotenvFile, 'utf8');
    assert.match(dotenv, /^TPP_PRIVATE_KEY_FILE=.*tpp-local-key\.pem$/m);
    assert.ok(fs.existsSync(path.join(dir, 'tpp-local-key.pem')), "Local's key file beside it");
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, w.file, 'the program is open');
  });

  it('never writes over another file: the same program keeps its name, a changed file gets the next one', async () => {
    // A payload whose program is the same each time (the example's {{$datetime}} takes the time of writing).
    const fixed = vscode.Uri.file(path.join(dir, 'write-program.tire-protection-registration.json'));
    const body = JSON.parse(fs.readFileSync(example().fsPath, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(fixed.fsPath, JSON.stringify({ ...body, invoiceNumber: 'INV-WRITE-PROGRAM', enrollDate: '2026-01-02T03:04:05Z' }, null, 2));
    fs.rmSync(path.join(dir, 'tpp_sample.py'));
    assert.equal((await cmd<Written>('tpp.writeProgram', fixed, 'python')).file, path.join(dir, 'tpp_sample.py'));
    assert.equal((await cmd<Written>('tpp.writeProgram', fixed, 'python')).file, path.join(dir, 'tpp_sample.py'), 'the same text: the same file');
    fs.rmSync(fixed.fsPath);
    fs.appendFileSync(path.join(dir, 'tpp_sample.py'), '# my change\n');
    const again = await cmd<Written>('tpp.writeProgram', example(), 'python');
    assert.equal(again.file, path.join(dir, 'tpp_sample_2.py'));
    assert.match(fs.readFileSync(path.join(dir, 'tpp_sample.py'), 'utf8'), /# my change\n$/, 'the changed program is kept');
    const node = await cmd<Written>('tpp.writeProgram', example(), 'node');
    assert.equal(node.file, path.join(dir, 'tpp-sample.js'));
    assert.match(fs.readFileSync(node.file, 'utf8'), /process\.loadEnvFile\(join\(dirname\(process\.argv\[1\]\), "tpp-local\.env"\)\)/);
  });

  it('a Local dotenv file written for another sandbox or key is not used, nor replaced, without the user\'s word', async () => {
    const env = path.join(dir, 'tpp-local.env');
    const stale = fs.readFileSync(env, 'utf8').replace(/^TPP_PARTNER_ID=.*$/m, 'TPP_PARTNER_ID=local-00000000');
    fs.writeFileSync(env, stale);
    fs.rmSync(path.join(dir, 'tpp_sample_2.py'), { force: true });
    // The question is a modal dialog, which VS Code answers "cancel" to while tests run: nothing is written.
    assert.equal(await cmd('tpp.writeProgram', example(), 'python'), undefined);
    assert.equal(fs.readFileSync(env, 'utf8'), stale, 'the dotenv file is left as it was');
    assert.ok(!fs.existsSync(path.join(dir, 'tpp_sample_2.py')), 'no program written for it');
  });

  it('Run in Terminal runs the program from its folder in a terminal of its own; another file is refused by name', async () => {
    const program = vscode.Uri.file(path.join(dir, 'tpp-sample.js'));
    const r = await cmd<{ command: string; cwd: string; terminal: string }>('tpp.runProgram', program);
    assert.deepEqual(r, { command: 'node tpp-sample.js', cwd: dir, terminal: 'Tire Protection: tpp-sample.js' });
    const terminal = await until(() => vscode.window.terminals.find((t) => t.name === 'Tire Protection: tpp-sample.js'));
    assert.ok(terminal, 'its terminal');
    const again = await cmd<{ terminal: string }>('tpp.runProgram', program);
    assert.equal(again.terminal, r.terminal);
    assert.equal(vscode.window.terminals.filter((t) => t.name === r.terminal).length, 1, 'the next run uses the same terminal');
    assert.equal(await cmd('tpp.runProgram', example()), undefined, 'a payload file is no program');
  });

  it('a program that writes to Production is not run before Production is set up and its name typed', async () => {
    const file = path.join(dir, 'tpp_sample_2.py');
    fs.writeFileSync(file, '# POST /tire-protection/registrations (createTireProtectionRegistration), with a fresh partner JWT\nload_dotenv(os.path.join(os.path.dirname(os.path.abspath(__file__)), "tpp-production.env"))\n');
    assert.equal(await cmd('tpp.runProgram', vscode.Uri.file(file)), undefined, 'Production has no base address, Partner ID or key here: nothing run');
    assert.ok(!vscode.window.terminals.some((t) => t.name === 'Tire Protection: tpp_sample_2.py'), 'no terminal ran it');
  });
});
