import { CommandDef } from './registry';
import { generateKeyPair } from './generateKeyPair';
import { refreshEnvironments } from './refreshEnvironments';
import { selectEnvironment, useEnvironment } from './selectEnvironment';
import { setPartnerId } from './setPartnerId';
import { showLog } from './showLog';

/** Every command of the extension; each id is also contributed in package.json. */
export const COMMANDS: readonly CommandDef[] = [selectEnvironment, useEnvironment, refreshEnvironments, generateKeyPair, setPartnerId, showLog];
