import { CliCommand } from '../io';
import { environmentsCommand } from './environments';
import { jwtCommand } from './jwt';
import { keygenCommand } from './keygen';
import { openapiCommand } from './openapi';
import { sandboxCommand } from './sandbox';
import { validateCommand } from './validate';

/** Every `tpp` subcommand, in the order `tpp help` lists them. Add new commands here. */
export const CLI_COMMANDS: readonly CliCommand[] = [environmentsCommand, keygenCommand, jwtCommand, openapiCommand, sandboxCommand, validateCommand];
