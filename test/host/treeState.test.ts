// A tree that knows each record's state, on the Local sandbox: context values per state and the
// package.json menus they select (no Cancel on a cancelled registration, no File Claim with no tires left), filters
// by invoice prefix (matched here, said so) and store number (the spec's list query), writes and Load Sample Data
// redraw only the folders or rows they touch, record tabs titled by invoice number, and File Claim drafts that leave
// nothing behind. Spec: Tire-protection registrations; Claims; States and transitions; Business rules.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { resolvePayloadVariables } from '../../src/core/variables';
import type { ExtensionApi } from '../../src/extension/extension';
import type { TreeNode } from '../../src/extension/tree/node';
import { activateExtension, EXTENSION_ID } from '../shared/extension';
import { sleep, until } from '../shared/driver';
import { folderRows, registrationsFolder } from '../shared/tree';
import { registrationChoices } from '../../src/extension/commandSupport/registrations';
import { CANCELLABLE, CLAIMABLE, type RegistrationState } from '../../src/core/listing/registrationPages';

const cmd = <T = unknown>(id: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(id, ...args);
type Menu = { command: string; when: string; group?: string };

/** True when the `view/item/context` menus offer `command` on a row with `contextValue` (evaluates `viewItem` clauses). */
function offered(command: string, contextValue: string): boolean {
  const menus = (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { menus: Record<string, Menu[]> } }).contributes.menus['view/item/context']!;
  return menus
    .filter((m) => m.command === command)
    .some((m) =>
      m.when.split('&&').every((clause) => {
        const c = clause.trim();
        const re = /^viewItem =~ \/(.*)\/$/.exec(c);
        if (re) return new RegExp(re[1]!).test(contextValue);
        const eq = /^viewItem == (.*)$/.exec(c);
        if (eq) return eq[1] === contextValue;
        return c === 'view == tpp.environments';
      }),
    );
}

describe('tree states, menus, filters and drafts (Local sandbox)', function () {
  this.timeout(180_000);
  let api: ExtensionApi;
  const tag = Date.now().toString(36).toUpperCase();
  const ids: Record<string, string> = {};
  let example: Record<string, unknown>;

  async function create(invoiceNumber: string, tires: number): Promise<string> {
    const body = { ...example, invoiceNumber, tires: (example.tires as unknown[]).slice(0, tires) };
    const { response } = await api.api.send('local', 'createTireProtectionRegistration', {}, body as never);
    return String((response.body as { id: string }).id);
  }

  /** The row of `invoice` in the Local registrations folder, filtered to that invoice number (by the server). */
  async function row(invoice: string): Promise<TreeNode> {
    if (api.registrations.filter('local', 'tire-protection').invoiceNumber !== invoice) await cmd('tpp.filterRegistrations', 'local', { invoiceNumber: invoice });
    const rows = await folderRows(api, 'local', 'tire-protection');
    const r = rows.find((n) => n.toTreeItem().label === invoice);
    assert.ok(r, `${invoice} in ${rows.map((n) => n.toTreeItem().label).join(', ')}`);
    return r;
  }

  before(async () => {
    api = await activateExtension();
    await cmd('tpp.selectEnvironment', 'local');
    await cmd('tpp.generateKeyPair', 'local', { curve: 'P-256', existing: 'replace' });
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    example = resolvePayloadVariables(JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, 'tire-protection-registration.json'))).toString()), 'tire-protection-registration') as Record<string, unknown>;
    ids.active = await create(`PFX-${tag}-ACTIVE`, 2);
    ids.cancelled = await create(`PFX-${tag}-CANCELLED`, 2);
    ids.none = await create(`OTHER-${tag}-NONE`, 1);
    await api.api.send('local', 'cancelTireProtectionRegistration', { id: ids.cancelled }, { cancelledOn: new Date().toISOString() } as never);
    const claim = { serviceInvoiceNumber: `SRV-${tag}`, serviceInvoiceDate: '2026-11-01', authorizedAmount: 100, tires: [{ original: { make: 'A', model: 'B', size: 'C' } }] };
    await api.api.send('local', 'createTireProtectionClaim', { id: ids.none }, claim as never);
  });

  after(async () => {
    await cmd('tpp.clearRegistrationFilter', 'local');
    await cmd('workbench.action.closeAllEditors');
  });

  it('invoice and store number filters are sent to the server; a listed row says only what the list says', async () => {
    // The tree's reads stay out of the request history; the Local sandbox's Integration Log sees what was sent.
    const sentList = (query: string) =>
      until(() => api.integrationLog.list('all', true).some((x) => x.request.method === 'GET' && /\/tire-protection\/registrations\?/.test(x.request.url) && x.request.url.includes(query)));
    const listed = (await row(`PFX-${tag}-ACTIVE`)).toTreeItem();
    assert.ok(await sentList(`invoiceNumber=PFX-${tag}-ACTIVE`), 'the invoice filter went to the server');
    assert.ok(!api.history.list('local').some((e) => e.path.includes(`invoiceNumber=PFX-${tag}-ACTIVE`)), 'a tree read is not in the history');
    assert.equal(listed.contextValue, 'registration.open');
    assert.match(String(listed.description), /Not cancelled$/);
    assert.equal((await row(`PFX-${tag}-CANCELLED`)).toTreeItem().contextValue, 'registration.cancelled', 'the listed record carries cancelledOn');
    await cmd('tpp.filterRegistrations', 'local', { storeNumber: `S-${tag}` });
    await folderRows(api, 'local', 'tire-protection');
    assert.ok(await sentList(`storeNumber=S-${tag}`), 'the store filter went to the server');
    assert.match(String((await registrationsFolder(api, 'local', 'tire-protection')).toTreeItem().description), new RegExp(`filter: store S-${tag}`));
  });

  it('expanded rows get their state from the metadata, and the menus follow the context value', async () => {
    const ctx = async (invoice: string) => {
      const r = await row(invoice);
      await api.view.getChildren(r); // expand: reads the registration and its metadata
      return String(r.toTreeItem().contextValue);
    };
    assert.equal(await ctx(`PFX-${tag}-ACTIVE`), 'registration.active');
    assert.equal(await ctx(`OTHER-${tag}-NONE`), 'registration.noTiresLeft');
    assert.equal(await ctx(`PFX-${tag}-CANCELLED`), 'registration.cancelled');
    assert.match(String((await row(`OTHER-${tag}-NONE`)).toTreeItem().description), /No tires left · 0 tires available/);
    // Menus per state.
    assert.ok(offered('tpp.fileClaim', 'registration.active') && offered('tpp.cancelRegistration', 'registration.active'));
    assert.ok(offered('tpp.fileClaim', 'registration.open') && offered('tpp.cancelRegistration', 'registration.open'));
    assert.ok(!offered('tpp.fileClaim', 'registration.noTiresLeft'), 'no File Claim with no tires left');
    assert.ok(offered('tpp.cancelRegistration', 'registration.noTiresLeft'));
    assert.ok(!offered('tpp.fileClaim', 'registration.cancelled') && !offered('tpp.cancelRegistration', 'registration.cancelled'), 'nothing to act on a cancelled one');
    assert.ok(!offered('tpp.fileClaim', 'registration.expired'));
    assert.ok(offered('tpp.cancelMotorClubRegistration', 'motorClub.active') && !offered('tpp.cancelMotorClubRegistration', 'motorClub.cancelled'));
    assert.ok(!offered('tpp.updateMotorClubCustomer', 'motorClub.cancelled'));
    assert.ok(offered('tpp.openRecord', 'registration.cancelled'), 'viewing stays offered');
  });

  it('an invoice prefix is matched among the rows read (the list query has no prefix form), and says so', async () => {
    await vscode.workspace.getConfiguration('tpp.registrations').update('pageSize', 200, vscode.ConfigurationTarget.Global);
    await cmd('tpp.filterRegistrations', 'local', { invoicePrefix: `PFX-${tag}` });
    try {
      let rows = await folderRows(api, 'local', 'tire-protection');
      assert.doesNotMatch(api.history.list('local')[0]!.path, /invoiceNumber=/, 'a prefix is not sent as a whole invoice number');
      // Registrations are listed oldest first: search further pages until both are found.
      for (let i = 0; i < 20 && rows.filter((n) => String(n.toTreeItem().label).startsWith('PFX-')).length < 2 && rows.at(-1)?.toTreeItem().label === 'Load more…'; i++) {
        assert.match(String(rows.at(-1)!.toTreeItem().description), /matches? among [\d,]+ of [\d,]+ read: search the next page/);
        await cmd('tpp.loadMoreRegistrations', 'local', 'tire-protection');
        rows = await folderRows(api, 'local', 'tire-protection');
      }
      assert.deepEqual(rows.map((n) => n.toTreeItem().label).filter((l) => l !== 'Load more…').sort(), [`PFX-${tag}-ACTIVE`, `PFX-${tag}-CANCELLED`]);
      assert.match(String((await registrationsFolder(api, 'local', 'tire-protection')).toTreeItem().description), new RegExp(`invoice PFX-${tag}\\*`));
    } finally {
      await cmd('tpp.clearRegistrationFilter', 'local');
      await vscode.workspace.getConfiguration('tpp.registrations').update('pageSize', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('File Claim on a registration with no tires left still opens its draft (sending is the user’s choice), and a draft closed unsent leaves nothing behind', async () => {
    const dirty = () => vscode.workspace.textDocuments.filter((d) => !d.isClosed && d.isDirty).map((d) => d.uri.toString());
    const dirtyBefore = dirty(); // other commands' untitled payloads (Create Shop…) are not this command's
    const untitledBefore = vscode.workspace.textDocuments.filter((d) => d.isUntitled).length;
    const none = await cmd<vscode.TextDocument>('tpp.fileClaim', { kind: 'registration', env: 'local', id: ids.none });
    assert.equal(none?.uri.scheme, 'tpp-draft', 'the draft opens: the server’s refusal is the lesson');
    await cmd('workbench.action.closeActiveEditor');
    const doc = await cmd<vscode.TextDocument>('tpp.fileClaim', await row(`PFX-${tag}-ACTIVE`));
    assert.equal(doc.uri.scheme, 'tpp-draft');
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, `Claim on PFX-${tag}-ACTIVE.json`);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(1, 0), '  "damageDescription": "nail",\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await until(() => !doc.isDirty), 'written back to memory: never left dirty');
    await cmd('workbench.action.closeActiveEditor');
    assert.ok(await until(() => api.drafts.size === 0), 'dropped when closed');
    assert.deepEqual(dirty(), dirtyBefore, 'nothing left dirty');
    assert.equal(vscode.workspace.textDocuments.filter((d) => d.isUntitled).length, untitledBefore, 'File Claim opened no untitled document');
  });

  it('a claim redraws that registration’s row alone, with its new state', async () => {
    const target = await row(`PFX-${tag}-ACTIVE`);
    await api.view.getChildren(target);
    const fired: (TreeNode | undefined)[] = [];
    const sub = api.view.onDidChangeTreeData((n) => fired.push(n));
    try {
      const claim = { serviceInvoiceNumber: `SRV2-${tag}`, serviceInvoiceDate: '2026-11-02', authorizedAmount: 50, tires: [1, 2].map(() => ({ original: { make: 'A', model: 'B', size: 'C' } })) };
      await cmd('tpp.sendPayload', await draftOf(claim, ids.active!), 'local');
      assert.ok(await until(() => String(target.toTreeItem().contextValue) === 'registration.noTiresLeft'), String(target.toTreeItem().contextValue));
      await sleep(400);
      assert.ok(!fired.includes(undefined), 'the whole tree was not redrawn');
      const redrawn = new Set(fired.map((n) => n?.toTreeItem().id));
      assert.ok(redrawn.has(`local:registration:${ids.active}`), [...redrawn].join(', '));
      assert.ok(!redrawn.has('local:folder:tire-protection'), 'not the whole folder');
    } finally {
      sub.dispose();
    }
  });

  it('opens a registration in a tab titled by its invoice number', async () => {
    const uri = await cmd<string>('tpp.openRecord', await row(`PFX-${tag}-CANCELLED`));
    assert.ok(vscode.Uri.parse(uri).path.endsWith(`/PFX-${tag}-CANCELLED · registration`), uri);
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, `PFX-${tag}-CANCELLED · registration`);
    const doc = vscode.window.activeTextEditor!.document;
    assert.equal(doc.languageId, 'json');
    assert.equal((JSON.parse(doc.getText()) as { registration: { _id: string } }).registration._id, ids.cancelled);
  });

  it('the palette pickers read the tree’s model: right after a cancellation, Cancel and File Claim no longer offer it, and it is listed as Cancelled', async () => {
    const invoice = `PICK-${tag}`;
    const id = await create(invoice, 2);
    await cmd('tpp.filterRegistrations', 'local', { invoiceNumber: invoice });
    const services = { registrations: api.registrations } as never;
    const choices = async (offered?: readonly RegistrationState[]) => (await registrationChoices(services, 'local', 'tire-protection', offered)).map((c) => `${c.label} ${c.state}`);
    assert.deepEqual(await choices(CANCELLABLE), [`${invoice} Not cancelled`]);
    const done = await cmd<{ status?: number }>('tpp.cancelRegistration', { kind: 'registration', env: 'local', id, invoiceNumber: invoice }, { cancelledOn: new Date().toISOString() });
    assert.equal(done.status, 204);
    assert.equal((done as { message?: string }).message, `Cancelled registration ${invoice} on Local.`, 'named by its invoice number, not its id');
    // At once, as a person opening the palette right after the cancellation would.
    assert.deepEqual(await choices(), [`${invoice} Cancelled`]);
    assert.deepEqual(await choices(CANCELLABLE), [], 'Cancel Registration… no longer offers it');
    assert.deepEqual(await choices(CLAIMABLE), [], 'File Claim… does not offer a cancelled registration');
    const shown = (await folderRows(api, 'local', 'tire-protection')).map((n) => n.toTreeItem());
    assert.deepEqual(shown.map((i) => [i.label, i.contextValue]), [[invoice, 'registration.cancelled']], 'the tree says the same');
    // Given only its id (a link, a script), the message still names it by the invoice number the tree read.
    const again = await cmd<{ status?: number; message?: string }>('tpp.cancelRegistration', { id }, { cancelledOn: new Date().toISOString() });
    assert.equal(again.status, 409);
    assert.ok(again.message?.includes(`refused "Cancel registration ${invoice}"`), again.message);
  });

  it('Load Sample Data redraws the Local registration folders (not the whole tree) and they show the new rows', async () => {
    await cmd('tpp.clearRegistrationFilter', 'local');
    await folderRows(api, 'local', 'tire-protection');
    const fired: (TreeNode | undefined)[] = [];
    const sub = api.view.onDidChangeTreeData((n) => fired.push(n));
    try {
      const before = (await api.registrations.pages('local', 'tire-protection'))[0]!.totalRecordCount ?? 0;
      const s = await cmd<{ registrations: number }>('tpp.loadSampleData');
      assert.ok(s.registrations > 0);
      const redrawn = new Set(fired.map((n) => (n ? n.toTreeItem().id : 'whole tree')));
      assert.deepEqual([...redrawn].filter((id) => /folder:(tire-protection|motor-club)/.test(String(id))).sort(), ['local:folder:motor-club', 'local:folder:tire-protection']);
      assert.ok(!redrawn.has('whole tree'));
      await folderRows(api, 'local', 'tire-protection');
      const after = (await api.registrations.pages('local', 'tire-protection'))[0]!.totalRecordCount ?? 0;
      assert.equal(after - before, s.registrations);
    } finally {
      sub.dispose();
    }
  });
});

/** A claim draft for `id` as File Claim would open it, with `claim` as its content. */
async function draftOf(claim: Record<string, unknown>, id: string): Promise<vscode.Uri> {
  const doc = await vscode.commands.executeCommand<vscode.TextDocument>('tpp.fileClaim', { kind: 'registration', env: 'local', id });
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), JSON.stringify({ $schema: 'tpp://schemas/tire-protection-claim.json', $registrationId: id, ...claim }, null, 2) + '\n');
  assert.ok(await vscode.workspace.applyEdit(edit));
  return doc.uri;
}
