// Copy Local Control Token in a real extension host (docs/testing-your-application.md, Security): the editor's Local
// sandbox answers its control API (`/__tpp/`) only with the token its process made at its start; the command puts
// that token on the clipboard, and a program of the user's (curl, a script counting a backfill's rows) calls the
// control API with it as a Bearer token. Without it, or with another, the answer is 401 and names the command.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension } from '../shared/extension';

describe('Copy Local Control Token', function () {
  this.timeout(180_000);

  it('copies the token the Local control API takes: records and the journal answer 200 with it, 401 without it', async () => {
    const api = await activateExtension();
    const kept = await vscode.env.clipboard.readText();
    try {
      await vscode.env.clipboard.writeText('');
      await vscode.commands.executeCommand('tpp.copyLocalControlToken'); // starts the Local sandbox when it is not running
      const token = await vscode.env.clipboard.readText();
      assert.match(token, /^[\w-]{32,}$/, 'a token on the clipboard');
      const origin = api.localSandbox.info?.origin;
      assert.ok(origin, 'the Local sandbox runs');
      for (const call of ['/__tpp/records?kind=registrations', '/__tpp/requests']) {
        const ok = await fetch(`${origin}${call}`, { headers: { authorization: `Bearer ${token}` } });
        assert.equal(ok.status, 200, `${call} with the copied token: ${await ok.text()}`);
        const without = await fetch(`${origin}${call}`);
        assert.equal(without.status, 401, `${call} without a token`);
        assert.match(await without.text(), /Copy Local Control Token/, 'the 401 says how to get the token');
        const other = await fetch(`${origin}${call}`, { headers: { authorization: `Bearer ${token.slice(1)}x` } });
        assert.equal(other.status, 401, `${call} with another token`);
      }
    } finally {
      await vscode.env.clipboard.writeText(kept);
    }
  });
});
