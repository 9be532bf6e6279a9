import { z } from 'zod';
import { ENDPOINTS } from './endpoints';
import { ErrorBody, ErrorIssue, UnauthorizedBody } from './errors';
import { ExampleBodies, Json, buildOperation, exportSchema, openApiPath, withoutEditorKeywords } from './openapiOperation';
import { BaseKind, EndpointDef } from './types';
import * as v2 from './v2';
import * as v3 from './v3';

/**
 * OpenAPI 3.1 documents of the partner interface, generated from the endpoint table (spec: Endpoints) and the zod
 * schemas (JSON Schema 2020-12 dialect, `io: 'input'`, i.e. the wire format). Operations that share a method and path
 * (the PATCH forms told apart by their body) become one operation whose request body is a `oneOf`. One document per
 * interface (version 3, version 2 records, eligibility lookup), each with its single server, so that a proxy, mock or
 * generator that takes one upstream can serve it; or all three in one document, where the other two interfaces'
 * paths carry their own server. See docs/contract.md.
 */

export type { ExampleBodies } from './openapiOperation';

/** The interfaces `tpp openapi --interface` can print, `all` being the three in one document. */
export const OPENAPI_INTERFACES = ['v3', 'v2', 'eligibility', 'all'] as const;
export type OpenApiInterface = (typeof OPENAPI_INTERFACES)[number];

/** Paths added to the document by a caller (e.g. the Local sandbox's own API), all under one tag. */
export interface OpenApiExtraPaths {
  /** The tag every operation of `paths` gets (added to the document's tags). */
  readonly tag: { readonly name: string; readonly description: string };
  /**
   * OpenAPI path items by path, relative to the version 3 server unless an item carries its own `servers`; they may
   * refer to `#/components/schemas/ErrorBody`. A path that the contract already has is refused (Error).
   */
  readonly paths: Readonly<Record<string, Json>>;
  /** Component schemas and security schemes the paths refer to (names must not clash with the contract's). */
  readonly components?: { readonly schemas?: Json; readonly securitySchemes?: Json };
}

/** What {@link buildOpenApiDocument} writes besides the contract. */
export interface OpenApiOptions {
  /** Which interface (default `all`). */
  readonly interface?: OpenApiInterface;
  /** Request bodies as sent, per payload kind, shown as the request-body examples of the operations they go to. */
  readonly examples?: ExampleBodies;
  /** Extra paths, written into the `all` document only (each single-interface document is the spec's alone). */
  readonly extra?: OpenApiExtraPaths;
}

/** Where the README of the toolkit is read (the extension's Marketplace page shows it). */
export const TOOLKIT_README_URL = 'https://marketplace.visualstudio.com/items?itemName=tpp-toolkit.tire-protection-partner-toolkit';

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

const TAGS: readonly { name: EndpointDef['product']; description: string }[] = [
  { name: 'auth', description: 'Token verification.' },
  { name: 'registrations', description: 'Registrations, earlier revision (dated 06-JUN-2022).' },
  { name: 'tire-protection', description: 'Tire-protection registrations, claims, shops, parts, transactions.' },
  { name: 'motor-club', description: 'Motor-club registrations.' },
  { name: 'records', description: 'Version 2 record interface.' },
  { name: 'eligibility', description: 'Vehicle eligibility lookup (retired).' },
];

const TITLES: Record<OpenApiInterface, string> = {
  all: 'Tire Protection Partner Interface',
  v3: 'Tire Protection Partner Interface, version 3',
  v2: 'Tire Protection Partner Interface, version 2 records',
  eligibility: 'Tire Protection Partner Interface, vehicle eligibility lookup (retired)',
};

function infoDescription(which: OpenApiInterface): string {
  const parts: Record<BaseKind, string> = {
    v3: 'version 3 (/api/v3)',
    v2: `version 2 records (${openApiPath(ENDPOINTS.v2PostRecords.path)})`,
    eligibility: 'the retired eligibility lookup (/api/v1)',
  };
  const covered = which === 'all' ? `${parts.v3}, ${parts.v2} and ${parts.eligibility}` : parts[which];
  return `Generated by the Tire Protection Partner Toolkit from its contract: ${covered}. Every call sends Authorization: Bearer <JWT> (ES256, ES384 or ES512; claims iat, iss, aud, exp).`;
}

/**
 * Builds the OpenAPI 3.1.0 document (a plain JSON-compatible object, the same for the same arguments: no time, no
 * path of this machine) of the {@link ENDPOINTS} of one interface, or of all.
 * @param version the `info.version` to write (the toolkit version)
 * @param options interface, request-body examples, extra paths ({@link OpenApiOptions})
 * @throws Error when an extra path is already a path of the contract
 */
export function buildOpenApiDocument(version = '0.0.0', options: OpenApiOptions = {}): Json {
  const which = options.interface ?? 'all';
  const names = componentSchemas();
  const schemas: Record<string, Json> = {};
  const ref = (schema: z.ZodType): Json => {
    const name = names.get(schema);
    if (!name) return exportSchema(schema);
    if (!schemas[name]) {
      // The v2 POST body (one of four array properties) refers to the four bodies; other unions of named
      // schemas likewise refer to their branches instead of inlining them.
      const branches =
        schema === v2.V2PostBody
          ? (Object.values(v2.V2_POST_BODIES) as z.ZodType[])
          : schema instanceof z.ZodUnion
            ? (schema.options as z.ZodType[])
            : [];
      schemas[name] =
        branches.length > 0 && branches.every((o) => names.has(o))
          ? withoutEditorKeywords({ ...(z.globalRegistry.get(schema) ?? {}), oneOf: branches.map(ref), ...(schema === v2.V2PostBody ? onlyOneV2Array() : {}) })
          : exportSchema(schema);
    }
    return { $ref: `#/components/schemas/${name}` };
  };

  // Group endpoints by base, path and method.
  const groups = new Map<string, EndpointDef[]>();
  for (const def of Object.values(ENDPOINTS)) {
    if (which !== 'all' && def.base !== which) continue;
    const key = `${def.base} ${def.path} ${def.method}`;
    groups.set(key, [...(groups.get(key) ?? []), def]);
  }

  const paths: Record<string, Json> = {};
  const used = new Set<string>();
  for (const defs of groups.values()) {
    const first = defs[0] as EndpointDef;
    // Paths of different bases never collide in this interface; in the document of all three, a path item of
    // another base than version 3 carries its server.
    const item = (paths[openApiPath(first.path)] ??= which === 'all' && first.base !== 'v3' ? { servers: [SERVERS[first.base]] } : {});
    const op = buildOperation(defs, ref, options.examples ?? {});
    // The lookup takes a dedicated token, not the partner JWT (spec: Vehicle eligibility lookup).
    if (first.base === 'eligibility' && which === 'all') op.security = [{ eligibilityToken: [] }];
    item[first.method.toLowerCase()] = op;
    used.add(first.product);
  }

  const tags: Json[] = TAGS.filter((t) => used.has(t.name)).map((t) => ({ ...t }));
  const extra = which === 'all' ? options.extra : undefined;
  if (extra) {
    tags.push({ ...extra.tag });
    for (const [path, item] of Object.entries(extra.paths)) {
      if (paths[path]) throw new Error(`Extra OpenAPI path ${path} is already a path of the contract.`);
      paths[path] = tagged(item, extra.tag.name);
    }
    ref(ErrorBody);
  }

  return {
    openapi: '3.1.0',
    info: {
      title: TITLES[which],
      version,
      description: infoDescription(which),
      contact: { name: 'Tire Protection Partner Toolkit', url: TOOLKIT_README_URL },
    },
    externalDocs: { description: 'Tire Protection Partner Toolkit: README (the tpp command line, the Local sandbox).', url: TOOLKIT_README_URL },
    servers: [SERVERS[which === 'all' ? 'v3' : which]],
    security: [which === 'eligibility' ? { eligibilityToken: [] } : { bearerAuth: [] }],
    tags,
    paths,
    components: {
      schemas: { ...schemas, ...(extra?.components?.schemas ?? {}) },
      securitySchemes: { ...securitySchemes(which), ...(extra?.components?.securitySchemes ?? {}) },
    },
  };
}

/**
 * With one of the v2 POST's array properties, none of the other three: the contract refuses a second one whatever it
 * holds ("only one array property per request"), where the `oneOf` alone would let an invalid or empty second array
 * through (only the valid branch matching).
 */
function onlyOneV2Array(): Json {
  const others = (key: string) => Object.fromEntries(v2.V2_POST_KEYS.filter((k) => k !== key).map((k) => [k, false]));
  return { dependentSchemas: Object.fromEntries(v2.V2_POST_KEYS.map((k) => [k, { properties: others(k) }])) };
}

/** The partner JWT (versions 3 and 2) and the eligibility lookup's dedicated token, as far as `which` uses them. */
function securitySchemes(which: OpenApiInterface): Json {
  const out: Json = {};
  if (which !== 'eligibility') {
    out.bearerAuth = {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'ECDSA-signed JWT (ES256/ES384/ES512) with iat, iss (Partner ID), aud (base address) and exp.',
    };
  }
  if (which === 'eligibility' || which === 'all') {
    out.eligibilityToken = {
      type: 'http',
      scheme: 'bearer',
      description: 'The dedicated token the provider issues for the eligibility lookup; tokens made with the Partner ID and key pair do not work on it.',
    };
  }
  return out;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A copy of a path item whose operations carry `tag` (first). */
function tagged(item: Json, tag: string): Json {
  const out: Json = structuredClone(item);
  for (const m of METHODS) {
    const op = out[m] as Json | undefined;
    if (op) op.tags = [tag, ...((op.tags as string[] | undefined) ?? []).filter((t) => t !== tag)];
  }
  return out;
}
