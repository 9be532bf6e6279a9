import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the manifest declares about trust (VS Code: Workspace Trust, Virtual Workspaces): a setting a workspace can set
 * and that shapes what is sent with the user's key must be ignored in Restricted Mode.
 */
describe('manifest: trust is declared as it is', () => {
  const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
    capabilities: { untrustedWorkspaces: { supported: unknown; restrictedConfigurations?: string[]; description?: string }; virtualWorkspaces: { supported: unknown; description?: string } };
    contributes: { configuration: { properties: Record<string, { scope?: string }> } | { properties: Record<string, { scope?: string }> }[] };
  };
  const sections = Array.isArray(manifest.contributes.configuration) ? manifest.contributes.configuration : [manifest.contributes.configuration];
  const settings = Object.assign({}, ...sections.map((s) => s.properties)) as Record<string, { scope?: string }>;
  /** Workspace-settable settings that only change what is shown, never what is sent. */
  const DISPLAY_ONLY = new Set(['tpp.diagnostics.disabled', 'tpp.statusBar.show']);

  it('every setting a workspace can set is display-only or restricted in untrusted workspaces', () => {
    const trust = manifest.capabilities.untrustedWorkspaces;
    assert.equal(trust.supported, 'limited');
    assert.ok(trust.description && trust.description.length > 20, 'Restricted Mode says what it limits');
    const workspaceSettable = Object.entries(settings).filter(([, s]) => !['application', 'machine'].includes(s.scope ?? 'window')).map(([k]) => k);
    for (const key of workspaceSettable) assert.ok(DISPLAY_ONLY.has(key) || trust.restrictedConfigurations?.includes(key), `${key} can be set by a workspace and shapes requests: restrict it`);
    assert.ok(trust.restrictedConfigurations?.includes('tpp.variables'));
  });

  it('the Local port is per machine and the token lifetime per user; virtual workspaces are limited, with a reason', () => {
    assert.equal(settings['tpp.local.port']?.scope, 'machine');
    assert.equal(settings['tpp.flows.allowRead']?.scope, 'machine', 'a workspace cannot widen what its flows read');
    assert.match(manifest.capabilities.untrustedWorkspaces.description ?? '', /runs none/);
    assert.equal(settings['tpp.token.lifetimeSeconds']?.scope, 'application');
    assert.equal(manifest.capabilities.virtualWorkspaces.supported, 'limited');
    assert.match(manifest.capabilities.virtualWorkspaces.description ?? '', /Connect Your Application/);
  });
});
