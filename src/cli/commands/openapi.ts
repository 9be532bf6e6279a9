import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { OPENAPI_INTERFACES, OpenApiInterface, buildOpenApiDocument } from '../../core/contract';
import { exampleBodies } from '../../core/variables/exampleBodies';
import { controlOpenApi } from '../../core/sandbox/control/openapi';
import { CliCommand, UsageError } from '../io';

declare const __TPP_VERSION__: string | undefined;

/**
 * `tpp openapi [--interface v3|v2|eligibility|all] [--format yaml|json]`: prints the OpenAPI 3.1 document of one
 * interface (each with its single server) or of all three plus the Local sandbox's control API, generated from the contract's endpoint table, with the
 * payloads of examples/ as request-body examples (e.g. `tpp openapi --interface v3 > partner-api-v3.yaml`). The same
 * bytes on every run. Exit 0; 2 on a usage error (an unknown interface names the choices).
 */
export const openapiCommand: CliCommand = {
  name: 'openapi',
  usage: `tpp openapi [--interface ${OPENAPI_INTERFACES.join('|')}] [--format yaml|json]   (e.g. tpp openapi --interface v3 > partner-api-v3.yaml)`,
  async run(args, io) {
    const { values } = parseArgs({
      args,
      options: { format: { type: 'string', default: 'yaml' }, interface: { type: 'string', default: 'all' } },
      strict: true,
      allowPositionals: false,
    });
    const format = values.format;
    if (format !== 'yaml' && format !== 'json') throw new UsageError(`--format must be yaml or json, not '${format}'.`);
    const which = values.interface;
    if (!(OPENAPI_INTERFACES as readonly string[]).includes(which)) {
      throw new UsageError(`--interface must be one of ${OPENAPI_INTERFACES.join(', ')}, not '${which}'.`);
    }
    const version = typeof __TPP_VERSION__ === 'string' ? __TPP_VERSION__ : '0.0.0-dev';
    // The document of all three also describes the Local sandbox's control API (docs/testing-your-application.md).
    const doc = buildOpenApiDocument(version, { interface: which as OpenApiInterface, examples: exampleBodies(), extra: controlOpenApi() });
    io.stdout.write(format === 'json' ? JSON.stringify(doc, null, 2) + '\n' : stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 }));
    return 0;
  },
};
