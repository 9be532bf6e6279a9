import { defineCommand, noArgs } from './registry';

/**
 * `tpp.refreshEnvironments` (the view's Refresh button): re-reads keys and settings, drops every cached
 * page of registrations and motor-club registrations (they are read again from the servers when shown),
 * and redraws the tree.
 */
export const refreshEnvironments = defineCommand({
  id: 'tpp.refreshEnvironments',
  needs: ['environments', 'registrations'],
  args: noArgs,
  run({ environments, registrations }) {
    registrations.invalidate();
    environments.refresh();
  },
});
