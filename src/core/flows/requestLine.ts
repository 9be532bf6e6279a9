/**
 * The request line of a flow request (docs/flows.md, Format): `[METHOD] URL [HTTP/1.1]`, GET when the method is left
 * out (REST Client), httpyac's `GRAPHQL` (a POST), and the lines that continue the URL as both tools read them: a query
 * string split over lines (`    ?page=2`, `    &pageSize=10`) and httpyac's path lines (`    /comments`).
 */

/** Methods a request line may start with (RFC 9110 and PATCH). */
export const FLOW_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'] as const;

const HTTP_VERSION_RE = /\s+HTTP\/(\S+)$/;
/** A line that continues the query string (REST Client and httpyac: it starts with `?` or `&`). */
export const QUERY_LINE_RE = /^\s*[?&]/;
/** A line that continues the path (httpyac: it starts with one `/`; `//` is a comment). */
export const PATH_LINE_RE = /^\s*\/(?!\/)[^*\s]*\s*$/;

/** Why a line continuing the URL cannot be added to it (a space outside {{…}}), or undefined. */
export function urlLineProblem(line: string): string | undefined {
  const t = line.trim();
  return /\s/.test(t.replace(/\{\{[^{}]*\}\}/g, '')) ? `A URL holds no spaces: '${t}' (encode a space as %20).` : undefined;
}

/** A stand-in for a space inside {{…}} while a request line is split (a character no request line holds). */
const HIDDEN_SPACE = '\u0001';
const unmask = (s: string): string => s.split(HIDDEN_SPACE).join(' ');
const isUrl = (s: string) => /^(https?:\/\/|\{\{)/i.test(s);

/** What a request line says. */
export interface RequestLine {
  readonly method: string;
  readonly url: string;
  readonly urlOffset: number;
  /** httpyac's `GRAPHQL` method (sent as POST). */
  readonly graphql?: boolean;
}

/** The HTTP version of a request line, or a problem for one that is not HTTP/1.x (httpyac sends HTTP/2 then). */
function versionProblem(line: string): string | undefined {
  const v = HTTP_VERSION_RE.exec(line)?.[1];
  if (v === undefined || v === '1.1' || v === '1.0') return undefined;
  return `HTTP/${v} on the request line: httpyac sends such a request over HTTP/${v}, tpp sends HTTP/1.1; leave the version out`;
}

/** Reads the request line: `[METHOD] URL [HTTP/x.y]`; a string is the problem. */
export function requestLine(text: string): RequestLine | string {
  const indent = text.length - text.trimStart().length;
  // Spaces inside {{…}} ({{$randomInt 1 5}}) belong to the URL: hidden while the line is split, then given back.
  const hidden = text.trim().replace(/\{\{[^{}]*\}\}/g, (m) => m.replace(/\s/g, HIDDEN_SPACE));
  const version = versionProblem(hidden);
  if (version) return version;
  const trimmed = hidden.replace(HTTP_VERSION_RE, '');
  const parts = /^(\S+)(?:\s+(\S.*))?$/.exec(trimmed);
  if (!parts) return 'A request line is METHOD URL, e.g. GET {{baseUrl}}/verify-token.';
  const first = parts[1] as string;
  if (parts[2] === undefined) {
    if (isUrl(first)) return { method: 'GET', url: unmask(first), urlOffset: indent };
    return (FLOW_METHODS as readonly string[]).includes(first.toUpperCase()) ? `The request line '${first}' has no URL after the method.` : `'${first}' is not a request line: write METHOD URL, e.g. GET {{baseUrl}}/verify-token (the URL starts with http://, https:// or {{).`;
  }
  const upper = first.toUpperCase();
  const graphql = upper === 'GRAPHQL';
  if (!graphql && !(FLOW_METHODS as readonly string[]).includes(upper)) {
    return isUrl(first) ? `A URL holds no spaces: '${unmask(trimmed)}' (encode a space as %20).` : `Unknown method '${first}' (use ${FLOW_METHODS.join(', ')}, or httpyac's GRAPHQL).`;
  }
  const masked = (parts[2] as string).trim();
  const url = unmask(masked);
  if (!isUrl(url)) return `The URL '${url}' must start with http://, https:// or a variable such as {{baseUrl}}.`;
  if (/\s/.test(masked)) return `A URL holds no spaces: '${url}' (encode a space as %20).`;
  return { method: graphql ? 'POST' : upper, url, urlOffset: text.indexOf(url, indent + first.length), ...(graphql ? { graphql: true } : {}) };
}
