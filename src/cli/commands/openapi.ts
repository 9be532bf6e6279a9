import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { buildOpenApiDocument } from '../../core/contract';
import { CliCommand, UsageError } from '../io';

declare const __TPP_VERSION__: string | undefined;

/**
 * `tpp openapi [--format yaml|json]`: prints the OpenAPI 3.1 document of the whole partner interface, generated
 * from the contract's endpoint table (e.g. `tpp openapi > partner-api.yaml`). Exit 0; 2 on a usage error.
 */
export const openapiCommand: CliCommand = {
  name: 'openapi',
  usage: 'tpp openapi [--format yaml|json]   (e.g. tpp openapi > partner-api.yaml)',
  async run(args, io) {
    const { values } = parseArgs({
      args,
      options: { format: { type: 'string', default: 'yaml' } },
      strict: true,
      allowPositionals: false,
    });
    const format = values.format;
    if (format !== 'yaml' && format !== 'json') throw new UsageError(`--format must be yaml or json, not '${format}'.`);
    const version = typeof __TPP_VERSION__ === 'string' ? __TPP_VERSION__ : '0.0.0-dev';
    const doc = buildOpenApiDocument(version);
    io.stdout.write(format === 'json' ? JSON.stringify(doc, null, 2) + '\n' : stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 }));
    return 0;
  },
};
