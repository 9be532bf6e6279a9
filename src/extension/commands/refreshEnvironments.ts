import { CommandDef } from './registry';

/** `tpp.refreshEnvironments`: re-reads keys and settings and redraws the tree. */
export const refreshEnvironments: CommandDef = {
  id: 'tpp.refreshEnvironments',
  run({ environments }) {
    environments.refresh();
  },
};
