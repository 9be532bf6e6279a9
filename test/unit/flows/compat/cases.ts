/**
 * What each file of the compatibility corpus must send (docs/flows.md, The same file in REST Client or httpyac): every
 * request in order, its method, path and query, the headers the file makes it carry (names without case; the ones a
 * tool adds to name itself — Host, Connection, User-Agent, Accept-Encoding, httpyac's `Accept: *\/*` — are left out
 * of the comparison; any other header sent is a difference), and its body byte for byte (Content-Length its length).
 * `httpyac: true` runs the same file through httpyac 6.16.7 against the same echo server and compares its bytes to
 * the same expectation; otherwise `source` names where the expected bytes come from.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One request as it must arrive. */
export interface Expected {
  readonly method: string;
  readonly target: string;
  /** Lower-case names; a list for a header sent on several lines. */
  readonly headers?: Readonly<Record<string, string | readonly string[] | ((now: Date) => string)>>;
  readonly body?: string | Buffer;
}

/** A corpus file and what it must send. */
export interface CorpusCase {
  readonly file: string;
  readonly requests: readonly Expected[];
  /** True: httpyac sends the same bytes (checked); a string: why httpyac is not run on it. */
  readonly httpyac: true | string;
  /** Where the expected bytes come from when httpyac is not the proof. */
  readonly source?: string;
}

/** The values the corpus runs with (`--var`, the process environment). */
export const CORPUS_VARIABLES = { user: 'doe', password: '12345678', dealer: 'D-77' } as const;
export const CORPUS_PROCESS_ENV = { TPP_COMPAT_TOKEN: 'env-token-1' } as const;

const DIR = __dirname;
const BASIC = 'Basic ZG9lOjEyMzQ1Njc4'; // base64 of doe:12345678
const dayjs = () => {
  const d = require('dayjs') as typeof import('dayjs');
  d.extend(require('dayjs/plugin/utc') as import('dayjs').PluginFunc);
  return d as typeof import('dayjs') & { utc: (date?: Date) => import('dayjs').Dayjs };
};
const png = (): Buffer => readFileSync(join(DIR, 'tire.png'));
const multipart = (): Buffer =>
  Buffer.concat([
    Buffer.from('--TireBoundary\r\nContent-Disposition: form-data; name="claim"\r\n\r\nCLM-1001\r\n--TireBoundary\r\nContent-Disposition: form-data; name="photo"; filename="tire.png"\r\nContent-Type: image/png\r\n\r\n'),
    png(),
    Buffer.from('\r\n--TireBoundary--'),
  ]);
const text = { 'content-type': 'text/plain' };
const TREAD = 'tread depth 4/32';

/** The corpus, file by file. */
export const CORPUS: readonly CorpusCase[] = [
  { file: 'disabled.http', httpyac: true, requests: [{ method: 'GET', target: '/disabled/first' }, { method: 'GET', target: '/disabled/last' }] },
  {
    file: 'graphql-httpyac.http',
    httpyac: true,
    requests: [
      { method: 'POST', target: '/graphql-httpyac/graphql', body: '{"query":"query Registrations($first: Int) {\\n  registrations(first: $first) { id invoiceNumber }\\n}","operationName":"Registrations","variables":{"first":2}}' },
      { method: 'POST', target: '/graphql-httpyac/graphql', body: '{"query":"mutation Cancel {\\n  cancel(id: \\"42\\") { id }\\n}","operationName":"Cancel"}' },
    ],
  },
  { file: 'graphql-method.http', httpyac: true, requests: [{ method: 'POST', target: '/graphql-method/graphql', headers: { 'content-type': 'application/json' }, body: '{"query":"query Shops {\\n  shops { id }\\n}","operationName":"Shops"}' }] },
  {
    file: 'graphql-rest-client.http',
    httpyac: 'httpyac does not read X-Request-Type (it would send the header, and no variables for the second request)',
    source: "REST Client's httpRequestParser.ts (createGraphQlBody): {query, operationName of a named query, variables or {}}, X-Request-Type removed",
    requests: [
      { method: 'POST', target: '/graphql-rest-client/graphql', headers: { 'content-type': 'application/json' }, body: '{"query":"query ($invoice: String!) {\\n  registration(invoiceNumber: $invoice) { id }\\n}","variables":{"invoice":"INV-7"}}' },
      { method: 'POST', target: '/graphql-rest-client/graphql', headers: { 'content-type': 'application/json' }, body: '{"query":"query Shops {\\n  shops { id }\\n}","operationName":"Shops","variables":{}}' },
    ],
  },
  { file: 'multipart.http', httpyac: true, requests: [{ method: 'POST', target: '/multipart/photos', headers: { 'content-type': 'multipart/form-data; boundary=TireBoundary' }, body: multipart() }] },
  {
    file: 'multipart-text.http',
    httpyac: true,
    requests: [
      {
        method: 'POST',
        target: '/multipart-text/claims',
        headers: { 'content-type': 'multipart/form-data; boundary=TireBoundary' },
        body: '--TireBoundary\r\nContent-Disposition: form-data; name="claim"\r\n\r\nCLM-1002\r\n--TireBoundary\r\nContent-Disposition: form-data; name="note"\r\n\r\ntread depth 4/32\r\n--TireBoundary--',
      },
    ],
  },
  { file: 'form-urlencoded.http', httpyac: true, requests: [{ method: 'POST', target: '/form-urlencoded/login', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=doe&password=12%2034&remember=true' }] },
  {
    file: 'basic-auth.http',
    httpyac: true,
    requests: [
      { method: 'GET', target: '/basic-auth/one', headers: { authorization: BASIC } },
      { method: 'GET', target: '/basic-auth/two', headers: { authorization: BASIC } },
      { method: 'GET', target: '/basic-auth/three', headers: { authorization: BASIC } },
    ],
  },
  {
    file: 'cookie-jar.http',
    httpyac: true,
    requests: [
      { method: 'POST', target: '/cookie-jar/login' },
      { method: 'GET', target: '/cookie-jar/me', headers: { cookie: 'session=s-1; theme=dark' } },
      { method: 'GET', target: '/cookie-jar/anonymous' },
    ],
  },
  {
    file: 'redirects.http',
    httpyac: true,
    requests: [
      { method: 'POST', target: '/redirects/redirect/302?to=/redirects/landed-302', headers: text, body: TREAD },
      { method: 'POST', target: '/redirects/landed-302', headers: text, body: TREAD },
      { method: 'POST', target: '/redirects/redirect/303?to=/redirects/landed-303', headers: text, body: TREAD },
      { method: 'GET', target: '/redirects/landed-303', headers: text },
      { method: 'PUT', target: '/redirects/redirect/307?to=/redirects/landed-307', headers: text, body: TREAD },
      { method: 'PUT', target: '/redirects/landed-307', headers: text, body: TREAD },
      { method: 'GET', target: '/redirects/redirect/301?to=/redirects/landed-301' },
      { method: 'GET', target: '/redirects/landed-301' },
      { method: 'GET', target: '/redirects/redirect/302?to=/redirects/never' },
    ],
  },
  { file: 'query-lines.http', httpyac: true, requests: [{ method: 'GET', target: '/query-lines/comments?page=2&pageSize=10', headers: { accept: 'application/json' } }] },
  {
    file: 'datetime.http',
    httpyac: true,
    requests: [
      {
        method: 'GET',
        target: '/datetime/day',
        headers: {
          'x-day': (now) => dayjs().utc(now).format('YYYY-MM-DD'),
          'x-local-day': (now) => dayjs()(now).format('YYYY-MM-DD'),
          'x-tomorrow': (now) => dayjs().utc(now).add(1, 'd').format('YYYY-MM-DD'),
        },
      },
    ],
  },
  // httpyac has no # @prompt: it leaves the line and reads the --var value, as tpp run does.
  { file: 'prompt.http', httpyac: true, requests: [{ method: 'GET', target: '/prompt/dealers/D-77' }] },
  { file: 'body-property.http', httpyac: true, requests: [{ method: 'GET', target: '/body-property/registration' }] },
  {
    file: 'process-env.http',
    // REST Client reads the .env of the flow's folder (then above it), httpyac the .env of its project's root: here both.
    httpyac: true,
    requests: [{ method: 'GET', target: '/process-env/keys', headers: { 'x-env': 'env-token-1', 'x-dotenv': 'dot-env-value' } }],
  },
  { file: 'comments-in-body.http', httpyac: true, requests: [{ method: 'POST', target: '/comments-in-body/notes', headers: text, body: 'first line\nlast line' }] },
  { file: 'headers-repeated.http', httpyac: true, requests: [{ method: 'GET', target: '/headers-repeated/tags', headers: { 'x-tag': ['winter', 'summer'] } }] },
  { file: 'ndjson.http', httpyac: true, requests: [{ method: 'POST', target: '/ndjson/events', headers: { 'content-type': 'application/x-ndjson' }, body: '{"event":"mounted"}\n{"event":"rotated"}\n' }] },
  {
    file: 'file-body.http',
    httpyac: true,
    requests: [
      { method: 'POST', target: '/file-body/update', headers: { 'content-type': 'application/json' }, body: readFileSync(join(DIR, 'update.json')) },
      { method: 'POST', target: '/file-body/note', headers: text, body: 'Dealer doe checked the tires.\n' },
    ],
  },
];

/** A construct refused by name: the file, and what its first problem must say (it names the construct and what to write). */
export interface RefusedCase {
  /** How docs/flows.md's table names it. */
  readonly name: string;
  readonly text: string;
  readonly problem: RegExp;
}

/** Constructs of REST Client, httpyac and the JetBrains HTTP Client that tpp refuses, each with its message. */
export const REFUSED: readonly RefusedCase[] = [
  { name: 'jetbrains-handler', text: 'GET {{echo}}/x\n\n> {%\n  client.test("t", function() { client.assert(response.status === 500); });\n%}\n', problem: /response handler > \{% … %\}.*scripts are not run: use \?\? assertions/ },
  { name: 'jetbrains-handler-one-line', text: 'GET {{echo}}/x\n> {% client.global.set("id", response.body.id); %}\n', problem: /response handler.*scripts are not run: use \?\? assertions/ },
  { name: 'jetbrains-pre-request-script', text: '< {%\n  request.variables.set("n", "1");\n%}\nGET {{echo}}/x\n', problem: /pre-request script < \{% … %\}.*scripts are not run/ },
  { name: 'jetbrains-pre-request-file', text: '< ./pre.js\nGET {{echo}}/x\n', problem: /pre-request script file.*scripts are not run/ },
  { name: 'handler-file', text: 'GET {{echo}}/x\n\n> ./handler.js\n', problem: /response handler script.*scripts are not run/ },
  { name: 'httpyac-script', text: '{{\n  exports.n = 1;\n}}\nGET {{echo}}/x\n', problem: /\{\{ … \}\} script block \(httpyac\): scripts are not run/ },
  { name: 'httpyac-response-script', text: 'GET {{echo}}/x\n\n{{@response\n  console.log(response);\n}}\n', problem: /script block.*scripts are not run/ },
  { name: 'inline-javascript', text: 'GET {{echo}}/x?t={{ Date.now() }}\n', problem: /httpyac would run it as JavaScript, and scripts are not run: use \?\? assertions/ },
  { name: 'assert-js', text: 'GET {{echo}}/x\n\n?? js response.status == 200\n', problem: /\?\? js runs JavaScript \(httpyac\): scripts are not run: use \?\? assertions/ },
  { name: 'disabled-condition', text: '# @disabled {{skip}}\nGET {{echo}}/x\n', problem: /condition after @disabled is JavaScript.*scripts are not run/ },
  { name: 'loop', text: '# @loop for 3\nGET {{echo}}/x\n', problem: /# @loop repeats the request with JavaScript/ },
  { name: 'ref', text: '# @ref login\nGET {{echo}}/x\n', problem: /# @ref runs another request first/ },
  { name: 'import', text: '# @import ./auth.http\nGET {{echo}}/x\n', problem: /# @import reads requests of another file/ },
  { name: 'sleep', text: '# @sleep 1000\nGET {{echo}}/x\n', problem: /# @sleep waits before sending/ },
  { name: 'note', text: '# @note Really?\nDELETE {{echo}}/x\n', problem: /# @note asks for a confirmation/ },
  { name: 'timeout', text: '# @timeout 5000\nGET {{echo}}/x\n', problem: /# @timeout sets the time limit/ },
  { name: 'output-redirect', text: 'GET {{echo}}/x\n\n>> ./answer.json\n', problem: /writes the answer to a file.*tpp run writes no files/ },
  { name: 'http2', text: 'GET {{echo}}/x HTTP/2\n', problem: /HTTP\/2 on the request line: httpyac sends such a request over HTTP\/2, tpp sends HTTP\/1\.1/ },
  { name: 'digest', text: 'GET {{echo}}/x\nAuthorization: Digest doe 12345678\n', problem: /Authorization: digest … is Digest authentication.*tpp does not compute/ },
  { name: 'aws', text: 'GET {{echo}}/x\nAuthorization: AWS key secret region:eu-west-1\n', problem: /AWS Signature Version 4/ },
  { name: 'aad-token', text: 'GET {{echo}}/x\nAuthorization: {{$aadToken}}\n', problem: /\$aadToken signs in to Azure AD \(REST Client\)/ },
  { name: 'jetbrains-uuid', text: 'GET {{echo}}/x?id={{$uuid}}\n', problem: /\$uuid is the JetBrains HTTP Client's: write \{\{\$guid\}\}/ },
  { name: 'jetbrains-random', text: 'GET {{echo}}/x?id={{$random.uuid}}\n', problem: /\$random\.uuid is the JetBrains HTTP Client's/ },
  { name: 'httpyac-prompt', text: 'GET {{echo}}/x\nX-Name: {{$prompt name}}\n', problem: /\$prompt asks for a value \(httpyac\): write # @prompt <name>/ },
  { name: 'process-env-indirect', text: 'GET {{echo}}/x\nX-Home: {{$processEnv %homeName}}\n', problem: /reads the variable's name from an environment setting \(REST Client\)/ },
  { name: 'form-line-without-ampersand', text: 'POST {{echo}}/x\nContent-Type: application/x-www-form-urlencoded\n\nname=doe\npassword=1\n', problem: /form line that does not start with &: REST Client sends a line break before it/ },
  { name: 'form-spaces', text: 'POST {{echo}}/x\nContent-Type: application/x-www-form-urlencoded\n\nname = doe\n', problem: /Spaces around = or & in a form body/ },
  { name: 'graphql-header-case', text: 'POST {{echo}}/x\nContent-Type: application/json\nX-Request-Type: graphql\n\nquery Shops {\n  shops { id }\n}\n', problem: /X-Request-Type: graphql: REST Client makes a GraphQL request only of the value GraphQL as written/ },
  { name: 'content-type-case', text: 'POST {{echo}}/x\nContent-Type: Multipart/Form-Data; boundary=B\n\n--B\nContent-Disposition: form-data; name="a"\n\n1\n--B--\n', problem: /Content-Type: Multipart\/Form-Data: httpyac reads this type only in lower case/ },
  { name: 'graphql-anonymous', text: 'POST {{echo}}/x\n\nquery {\n  shops { id }\n}\n', problem: /anonymous GraphQL query: httpyac would send '\{' as its operationName; name it/ },
  { name: 'header-trailing-comma', text: 'GET {{echo}}/x\nAccept: text/html,\n', problem: /ends with ',': httpyac drops the comma and REST Client sends it/ },
  { name: 'body-file-encoding', text: 'POST {{echo}}/x\n\n<@latin1 ./body.txt\n', problem: /<@latin1: tpp reads body files as UTF-8/ },
  { name: 'streamed-body', text: 'POST {{echo}}/x\n\n{"a":1}\n===\n{"b":2}\n', problem: /splits a streamed body \(httpyac\)/ },
  { name: 'lazy-variable', text: '@token := {{login.response.body.$.token}}\nGET {{echo}}/x\n', problem: /lazy variable \(httpyac's @name := value\)/ },
  { name: 'assert-xpath', text: 'GET {{echo}}/x\n\n?? xpath //id == 1\n', problem: /\?\? xpath reads an XML answer \(httpyac\)/ },
];
