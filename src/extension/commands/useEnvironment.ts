import { CommandDef } from './registry';
import { selectEnvironment } from './selectEnvironment';

/** `tpp.useEnvironment`: inline tree action, makes the clicked environment active. */
export const useEnvironment: CommandDef = { id: 'tpp.useEnvironment', run: selectEnvironment.run };
