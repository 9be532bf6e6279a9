import * as vscode from 'vscode';
import { treeArgOf } from '../commandSupport/treeArgs';
import { defineCommand, UserCancelled } from './registry';

/**
 * `tpp.copyAddress(node?)`: copies an address row's address (the Local v3, v2 and eligibility base addresses) to the
 * clipboard; from the palette, asks which Local address. Resolves to the address; throws when Local has none yet
 * (port 0 before the sandbox started).
 */
export const copyAddress = defineCommand({
  id: 'tpp.copyAddress',
  needs: ['localSandbox'],
  args: ([arg]) => {
    const row = treeArgOf(arg);
    return { address: row?.node === 'address' ? row.url : undefined };
  },
  async run(services, { address }) {
    let url = address;
    if (!url) {
      const a = services.localSandbox.addresses;
      if (!a) throw new Error('Local has no address yet: with tpp.local.port = 0 it is known once the sandbox starts (send any Local request, or choose a fixed port with Set Local Port…).');
      const picked = await vscode.window.showQuickPick(
        [
          { label: a.v3BaseUrl, description: 'v3 base address (TPP_BASE_URL, the v3 JWT aud)' },
          { label: a.v2BaseUrl, description: 'v2 address (TPP_V2_BASE_URL, the v2 JWT aud)' },
          { label: a.eligibilityBaseUrl, description: 'eligibility address (retired lookup)' },
        ],
        { title: 'Copy a Local address' },
      );
      if (!picked) throw new UserCancelled();
      url = picked.label;
    }
    await vscode.env.clipboard.writeText(url);
    void vscode.window.setStatusBarMessage(`Copied ${url}`, 3000);
    return url;
  },
});
