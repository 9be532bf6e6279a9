import { ApiError } from '../ops/common';

/**
 * Helpers of the control API's input (docs/testing-your-application.md, Control API; the shapes are in ./schemas.ts):
 * every problem is a 400 naming the field (`issues[].path`) and, for a limit, the limit.
 */

/** 400 naming `path`. */
export function bad(path: string, message: string): ApiError {
  return new ApiError(400, 'bad_request', `${path}: ${message}`, [{ path, message }]);
}

/**
 * A path pattern as a RegExp over a request path without its query: `*` stands for any characters within one path
 * segment, `**` for any characters across segments; everything else is literal.
 */
export function pathPattern(pattern: string, field: string): RegExp {
  if (!pattern.startsWith('/')) throw bad(field, `must be a path starting with / (e.g. /api/v3/tire-protection/registrations), not '${pattern}'`);
  const source = pattern
    .split('**')
    .map((part) => part.split('*').map((lit) => lit.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*'))
    .join('.*');
  return new RegExp(`^${source}$`);
}

/** A request path without its query string. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/**
 * A field path as its segments, in either notation: `tires.0.retailPrice` (the sandbox's answers) or
 * `tires[0].retailPrice` (the diagnosis, `rule`): `['tires', '0', 'retailPrice']`.
 */
export function fieldPath(text: string): string[] {
  return text.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '').split('.');
}

/** The value at a field path (`a.b.0.c`) of a parsed JSON body, as JSON text (undefined: no such field). */
export function fieldText(body: unknown, path: readonly string[]): string | undefined {
  let v = body;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v === undefined ? undefined : JSON.stringify(v);
}
