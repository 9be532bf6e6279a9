/** The send order of a run (`tpp send a.json b.json …`): producers of a capture first, cancellations last. */
import * as assert from 'node:assert/strict';
import { sendOrder } from '../../../src/core/variables';

describe('variables: send order of a run', () => {
  const claim = { kind: 'tire-protection-claim' as const, value: { $registrationId: '{{lastRegistration.id}}' } };
  const cancel = { kind: 'cancellation' as const, value: { $registrationId: '{{lastRegistration.id}}' } };
  const reg = { kind: 'tire-protection-registration' as const, value: { invoiceNumber: 'INV-{{$guid}}' } };
  const shop = { kind: 'shop' as const, value: { uniqueId: 'S-1' } };

  it('sends the registration before the claim using {{lastRegistration.id}}, and the cancellation after the claim', () => {
    assert.deepEqual(sendOrder([cancel, claim, shop, reg]), [2, 3, 1, 0]);
  });

  it('keeps the given order when no file of the run makes the capture a file uses', () => {
    assert.deepEqual(sendOrder([cancel, claim, shop]), [0, 1, 2]);
    assert.deepEqual(sendOrder([shop, {}, reg]), [0, 1, 2]);
  });
});
