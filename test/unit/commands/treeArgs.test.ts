// The one decoder of a command's row argument (src/extension/commandSupport/treeArgs.ts): what each row of the
// Environments view and the Integration Log passes, read by its fields, since the nodes are made in dist/extension.js
// and the commands run in dist/commands.js. The stand-ins below expose what the node classes of src/extension/tree
// expose (fields, and getters on the prototype), without the editor. Plain Node.
import * as assert from 'node:assert/strict';
import { envOf, listProductOf, productOf, registrationRefOf, treeArgOf } from '../../../src/extension/commandSupport/treeArgs';
import type { EnvironmentId } from '../../../src/core/environments';

/** As tree/registrationNode.ts and tree/motorClubNode.ts: `kind`, `env`, `row`, `id` and `invoiceNumber` getters. */
class RegistrationLike {
  constructor(
    readonly kind: 'registration' | 'motorClub',
    readonly env: EnvironmentId,
    readonly row: { record: Record<string, unknown> },
  ) {}
  get id(): string {
    return typeof this.row.record._id === 'string' ? this.row.record._id : '';
  }
  get invoiceNumber(): string {
    return typeof this.row.record.invoiceNumber === 'string' ? this.row.record.invoiceNumber : '';
  }
}

const exchange = { id: 'x1', env: 'local', request: { method: 'GET', url: 'http://127.0.0.1:28463/api/v3/tire-protection/registrations' } };

describe('command arguments: the tree-row decoder', () => {
  it('decodes a registration row (getters on the prototype) with its listed record', () => {
    const node = new RegistrationLike('registration', 'local', { record: { _id: 'r1', invoiceNumber: 'INV-1042' } });
    assert.deepEqual(treeArgOf(node), { node: 'registration', env: 'local', id: 'r1', invoiceNumber: 'INV-1042', record: { _id: 'r1', invoiceNumber: 'INV-1042' } });
    assert.deepEqual(registrationRefOf(node), { id: 'r1', invoiceNumber: 'INV-1042' });
  });

  it('decodes a motor-club row, a claim and a history row, and names no registration for the last two', () => {
    const mc = new RegistrationLike('motorClub', 'sandbox', { record: { _id: 'm1', customer: { name: 'Ada' } } });
    const mcArg = treeArgOf(mc);
    assert.equal(mcArg?.node, 'motorClub');
    assert.deepEqual(mcArg?.node === 'motorClub' ? mcArg.record?.customer : undefined, { name: 'Ada' });
    const claim = { kind: 'claim', env: 'local', registrationId: 'r1', record: { id: 7, serviceInvoiceNumber: 'SRV-7' }, id: '7' };
    assert.deepEqual(treeArgOf(claim), { node: 'claim', env: 'local', id: '7', record: claim.record });
    assert.equal(registrationRefOf(claim), undefined);
    const history = { kind: 'history', env: 'production', id: 'h1', entry: { id: 'h1', method: 'POST' } };
    assert.deepEqual(treeArgOf(history), { node: 'history', env: 'production', id: 'h1', entry: history.entry });
    assert.equal(registrationRefOf(history), undefined);
  });

  it('reads an environment row (and a key row) by status.info.id, with its label', () => {
    const status = { info: { id: 'production', label: 'Production' }, gaps: [] };
    assert.deepEqual(treeArgOf({ status }), { node: 'environment', env: 'production', label: 'Production', status });
    assert.equal(envOf({ status }), 'production');
    assert.equal(treeArgOf({ status: { info: { id: 'staging' } } })?.node, 'row', 'an unknown environment id is no environment row');
  });

  it('reads an Integration Log exchange, and a row holding one, as an exchange', () => {
    assert.deepEqual(treeArgOf(exchange), { node: 'exchange', env: 'local', id: 'x1', exchange });
    assert.deepEqual(treeArgOf({ exchange }), { node: 'exchange', env: undefined, id: undefined, exchange });
    assert.equal(treeArgOf({ request: { method: 'GET' } })?.node, 'row', 'a request without a URL is no exchange');
  });

  it('reads an address row, a folder, Load more and options objects', () => {
    assert.deepEqual(treeArgOf({ url: 'http://127.0.0.1:28463/api/v3' }), { node: 'address', env: undefined, url: 'http://127.0.0.1:28463/api/v3' });
    assert.equal(productOf({ env: 'local', product: 'motor-club' }, undefined), 'motor-club');
    assert.deepEqual(registrationRefOf({ invoiceNumber: 'INV-1', storeNumber: '7' }), { invoiceNumber: 'INV-1', storeNumber: '7' });
    assert.deepEqual(registrationRefOf({ id: 'r9' }), { id: 'r9' });
    assert.equal(registrationRefOf({ id: '', invoiceNumber: '' }), undefined, 'empty texts name nothing');
  });

  it('names the product of a list command by the row, else the second argument, else none', () => {
    assert.equal(listProductOf({ env: 'local', product: 'motor-club' }, 'tire-protection'), 'motor-club', 'the row wins');
    assert.equal(listProductOf('local', 'motor-club'), 'motor-club');
    assert.equal(listProductOf('local', 'anything'), 'tire-protection');
    assert.equal(listProductOf('local', undefined), undefined, 'no product named: every list of the environment');
    assert.equal(productOf(undefined, undefined), 'tire-protection');
  });

  it('takes the environment from an id or a row, else none (the command falls back: args.ts); anything else is no row', () => {
    assert.equal(envOf('local'), 'local');
    assert.equal(envOf({ env: 'production', product: 'tire-protection' }), 'production');
    assert.equal(envOf(undefined), undefined);
    assert.equal(envOf({ env: 'nowhere' }), undefined);
    for (const v of [undefined, null, 'local', 3, true]) assert.equal(treeArgOf(v), undefined);
  });
});
