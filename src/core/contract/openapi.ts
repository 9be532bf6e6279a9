import { z } from 'zod';
import { ENDPOINTS } from './endpoints';
import { ErrorBody, ErrorIssue, SANDBOX_STATUS_TABLE, STATUS_TABLE, UnauthorizedBody } from './errors';
import { BaseKind, EndpointDef } from './types';
import * as v2 from './v2';
import * as v3 from './v3';

/**
 * OpenAPI 3.1 document of the whole partner interface, generated from the endpoint table (spec: Endpoints) and
 * the zod schemas (JSON Schema 2020-12 dialect, `io: 'input'`, i.e. the wire format). Operations that share a
 * method and path (the PATCH forms told apart by their body) become one operation whose request body is a
 * `oneOf`. Each base address is a server variable.
 */

/** Named component schemas: every exported zod schema of the contract that is used as a body or response. */
function componentSchemas(): Map<z.ZodType, string> {
  const named = new Map<z.ZodType, string>();
  const add = (mod: Record<string, unknown>) => {
    for (const [name, value] of Object.entries(mod)) {
      if (value instanceof z.ZodType && !named.has(value)) named.set(value, name);
    }
  };
  add({ ErrorBody, ErrorIssue, UnauthorizedBody });
  add(v2 as Record<string, unknown>);
  add(v3 as Record<string, unknown>);
  return named;
}

const SERVERS: Record<BaseKind, { url: string; description: string; variables: Record<string, unknown> }> = {
  v3: {
    url: '{base_url}',
    description: 'Version 3 interface: production {base_url} or sandbox {sandbox_url}, ending in /api/v3.',
    variables: { base_url: { default: 'https://partner-api.example.invalid/api/v3', description: 'Ends in /api/v3.' } },
  },
  v2: {
    url: '{legacy_base_url}',
    description: 'Host of the version 2 record interface.',
    variables: { legacy_base_url: { default: 'https://legacy.example.invalid', description: 'Version 2 host.' } },
  },
  eligibility: {
    url: '{rsa_base_url}',
    description: 'Retired eligibility lookup, ending in /api/v1.',
    variables: { rsa_base_url: { default: 'https://rsa.example.invalid/api/v1', description: 'Ends in /api/v1.' } },
  },
};

type Json = Record<string, unknown>;

function toSchema(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Json;
  delete out.$schema;
  return out;
}

/** Description (and other meta data) registered for a schema, as JSON Schema keywords. */
function metaOf(schema: z.ZodType): Json {
  return { ...(z.globalRegistry.get(schema) ?? {}) };
}

/**
 * Builds the OpenAPI 3.1.0 document (a plain JSON-compatible object) for {@link ENDPOINTS}.
 * @param version the `info.version` to write (the toolkit version)
 */
export function buildOpenApiDocument(version = '0.0.0'): Json {
  const names = componentSchemas();
  const schemas: Record<string, Json> = {};
  const ref = (schema: z.ZodType): Json => {
    const name = names.get(schema);
    if (!name) return toSchema(schema);
    if (!schemas[name]) {
      // The v2 POST body (one of four array properties) refers to the four bodies; other unions of named
      // schemas likewise refer to their branches instead of inlining them.
      const options =
        schema === v2.V2PostBody
          ? (Object.values(v2.V2_POST_BODIES) as z.ZodType[])
          : schema instanceof z.ZodUnion
            ? (schema.options as z.ZodType[])
            : [];
      schemas[name] =
        options.length > 0 && options.every((o) => names.has(o))
          ? { ...metaOf(schema), oneOf: options.map(ref) }
          : toSchema(schema);
    }
    return { $ref: `#/components/schemas/${name}` };
  };

  // Group endpoints by base, path and method.
  const groups = new Map<string, EndpointDef[]>();
  for (const def of Object.values(ENDPOINTS)) {
    const key = `${def.base} ${def.path} ${def.method}`;
    groups.set(key, [...(groups.get(key) ?? []), def]);
  }

  const paths: Record<string, Json> = {};
  for (const defs of groups.values()) {
    const first = defs[0] as EndpointDef;
    const oaPath = first.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
    // Paths of different bases never collide in this interface; the path item carries its server.
    const item = (paths[oaPath] ??= first.base === 'v3' ? {} : { servers: [SERVERS[first.base]] });

    const parameters: Json[] = [];
    for (const p of first.pathParams) {
      parameters.push({ name: p, in: 'path', required: true, schema: { type: 'string' } });
    }
    const seenQuery = new Set<string>();
    for (const def of defs) {
      for (const [name, q] of Object.entries(def.query)) {
        if (seenQuery.has(name)) continue;
        seenQuery.add(name);
        const schema = toSchema(q.schema);
        if (q.default !== undefined) schema.default = q.default;
        const aliases = q.aliases?.length ? ` Also accepted as: ${q.aliases.join(', ')}.` : '';
        parameters.push({
          name,
          in: 'query',
          required: defs.every((d) => d.query[name]?.required === true),
          description: q.description + aliases,
          schema,
        });
      }
    }

    const bodies = defs.map((d) => d.body).filter((b): b is z.ZodType => b !== undefined);
    const responses: Record<string, Json> = {};
    for (const def of defs) {
      for (const [status, schema] of Object.entries(def.responses)) {
        if (responses[status]) continue;
        const row = STATUS_TABLE[Number(status)] ?? SANDBOX_STATUS_TABLE[Number(status)];
        const description = row ? `${row.name}: ${row.meaning}` : status;
        responses[status] =
          schema === null
            ? { description }
            : {
                description,
                content: { 'application/json': { schema: ref(schema) } },
              };
      }
    }

    const op: Json = {
      operationId: defs.map((d, i) => (i === 0 ? d.id : d.id[0]?.toUpperCase() + d.id.slice(1))).join('Or'),
      summary: defs.map((d) => d.summary).join(' / '),
      tags: [first.product],
      parameters,
      responses,
    };
    if (defs.length > 1) {
      op.description = `Told apart by the body: ${defs.map((d) => `${d.id} (${d.summary})`).join('; ')}.`;
    }
    if (bodies.length > 0) {
      const schema = bodies.length === 1 ? ref(bodies[0] as z.ZodType) : { oneOf: bodies.map(ref) };
      op.requestBody = { required: true, content: { 'application/json': { schema } } };
    }
    if (defs.every((d) => d.deprecated)) op.deprecated = true;
    if (first.base === 'eligibility') {
      op.description =
        'Deprecated and unsupported. Requires a dedicated token issued by the provider; tokens made with the partner ID and key pair do not work. If vin, licensePlate and state are all sent, only vin is used.';
    }
    item[first.method.toLowerCase()] = op;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Tire Protection Partner Interface',
      version,
      description:
        `Generated by the Tire Protection Partner Toolkit from its contract. Version 3 (/api/v3), version 2 records (${ENDPOINTS.v2PostRecords.path.replace(/:([A-Za-z_]+)/g, '{$1}')}) and the retired eligibility lookup (/api/v1). Every call sends Authorization: Bearer <JWT> (ES256, ES384 or ES512; claims iat, iss, aud, exp).`,
    },
    servers: [SERVERS.v3],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'auth', description: 'Token verification.' },
      { name: 'registrations', description: 'Registrations, earlier revision (dated 06-JUN-2022).' },
      { name: 'tire-protection', description: 'Tire-protection registrations, claims, shops, parts, transactions.' },
      { name: 'motor-club', description: 'Motor-club registrations.' },
      { name: 'records', description: 'Version 2 record interface.' },
      { name: 'eligibility', description: 'Vehicle eligibility lookup (retired).' },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'ECDSA-signed JWT (ES256/ES384/ES512) with iat, iss (Partner ID), aud (base address) and exp.',
        },
      },
    },
  };
}
