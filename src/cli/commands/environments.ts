import { parseArgs } from 'node:util';
import { listEnvironments } from '../../core/environments';
import { CliCommand } from '../io';

/** `tpp environments [--format text|json]`: lists the environments the toolkit knows. */
export const environmentsCommand: CliCommand = {
  name: 'environments',
  usage: 'tpp environments [--format text|json]',
  async run(args, io) {
    const { values } = parseArgs({ args, options: { format: { type: 'string', default: 'text' } }, strict: true });
    const envs = listEnvironments();
    if (values.format === 'json') io.stdout.write(JSON.stringify(envs, null, 2) + '\n');
    else for (const e of envs) io.stdout.write(`${e.id.padEnd(11)} ${e.label.padEnd(11)} ${e.description}\n`);
    return 0;
  },
};
