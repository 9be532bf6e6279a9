import { defineCommand } from './registry';
import { selectEnvironment } from './selectEnvironment';

/** `tpp.useEnvironment`: inline tree action, makes the clicked environment active. */
export const useEnvironment = defineCommand({
  ...selectEnvironment.spec,
  id: 'tpp.useEnvironment',
});
