import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { OPENAPI_INTERFACES, OpenApiInterface, buildOpenApiDocument } from '../../core/contract';
import { exampleBodies } from '../../core/variables/exampleBodies';
import { controlOpenApi, controlOpenApiDocument } from '../../core/sandbox/control/openapi';
import { CliCommand, UsageError } from '../io';

declare const __TPP_VERSION__: string | undefined;

/** The interfaces `--interface` takes: the contract's, and `control`, the Local sandbox's control API alone. */
const CHOICES = [...OPENAPI_INTERFACES, 'control'] as const;

/**
 * `tpp openapi [--interface v3|v2|eligibility|all|control] [--format yaml|json]`: prints the OpenAPI 3.1 document of one
 * interface (each with its single server) or of all three plus the Local sandbox's control API, generated from the contract's endpoint table, with the
 * payloads of examples/ as request-body examples (e.g. `tpp openapi --interface v3 > partner-api-v3.yaml`); `control`
 * is the control API alone (docs/testing-your-application.md, Control API reference). The same bytes on every run.
 * Exit 0; 2 on a usage error (an unknown interface names the choices).
 */
export const openapiCommand: CliCommand = {
  name: 'openapi',
  usage: `tpp openapi [--interface ${CHOICES.join('|')}] [--format yaml|json]   (e.g. tpp openapi --interface v3 > partner-api-v3.yaml; control: the Local sandbox's control API)`,
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
    if (!(CHOICES as readonly string[]).includes(which)) {
      throw new UsageError(`--interface must be one of ${CHOICES.join(', ')}, not '${which}'.`);
    }
    const version = typeof __TPP_VERSION__ === 'string' ? __TPP_VERSION__ : '0.0.0-dev';
    // The document of all three also describes the Local sandbox's control API (docs/testing-your-application.md).
    const doc = which === 'control' ? controlOpenApiDocument(version) : buildOpenApiDocument(version, { interface: which as OpenApiInterface, examples: exampleBodies(), extra: controlOpenApi() });
    io.stdout.write(format === 'json' ? JSON.stringify(doc, null, 2) + '\n' : stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 }));
    return 0;
  },
};
