import { CommandDef } from './registry';

/**
 * `tpp.refreshEnvironments` (the view's Refresh button): re-reads keys and settings, drops every cached
 * page of registrations and motor-club registrations (they are read again from the servers when shown),
 * and redraws the tree.
 */
export const refreshEnvironments: CommandDef = {
  id: 'tpp.refreshEnvironments',
  run({ environments, registrations }) {
    registrations.invalidate();
    environments.refresh();
  },
};
