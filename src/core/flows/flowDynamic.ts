/**
 * `{{$…}}` values in flows (docs/flows.md, Variables): the dynamic values of core/variables (REST Client's, also
 * httpyac's), REST Client's `{{$processEnv NAME}}` and `{{$dotenv NAME}}` — values of the user's side, which go only to
 * the environment's addresses (carried.ts, docs/flows.md: What a flow may do) — and the names other tools use, each
 * refused with what to write instead.
 */
import { dynamicVariable } from '../variables/dynamic';

/** The values read from the user's machine: the process environment and a `.env` file. */
export const USER_SIDE_DYNAMICS: ReadonlySet<string> = new Set(['$processEnv', '$dotenv']);

const KNOWN = '$guid, $timestamp, $datetime, $localDatetime, $randomInt, $date, $processEnv, $dotenv';

/** Values of other tools, by name: what they do there and what to write here. */
const OTHER_TOOLS: Readonly<Record<string, string>> = {
  $aadToken: 'signs in to Azure AD (REST Client): tpp does not; pass the token with --var token=… and write {{token}}',
  $aadV2Token: 'signs in to Azure AD (REST Client): tpp does not; pass the token with --var token=… and write {{token}}',
  $oidcAccessToken: 'signs in to an OpenID provider (REST Client): tpp does not; pass the token with --var token=… and write {{token}}',
  $oauth2: "reads a token of another tool's OAuth2 sign-in (httpyac 6 has none by that name: its sign-in is Authorization: oauth2 …): tpp does not sign in; pass the token with --var token=… and write {{token}}",
  $openid: "reads a token of another tool's OpenID sign-in (httpyac 6 has none by that name: its sign-in is Authorization: openid …): tpp does not sign in; pass the token with --var token=… and write {{token}}",
  $prompt: 'asks for a value (httpyac): write # @prompt <name> above the request and {{<name>}} here',
  $input: 'asks for a value (httpyac): write # @prompt <name> above the request and {{<name>}} here',
  $password: 'asks for a value (httpyac): write # @prompt <name> above the request and {{<name>}} here',
  $pick: 'asks for a choice (httpyac): write # @prompt <name> above the request and {{<name>}} here',
  $uuid: 'is the JetBrains HTTP Client\'s: write {{$guid}}',
  $isoTimestamp: "is the JetBrains HTTP Client's: write {{$datetime iso8601}}",
  $projectRoot: "is the project's folder (httpyac): a flow names files relative to itself",
};

/**
 * Why a `{{$name args}}` of a flow cannot be used, or undefined when it can.
 * @returns one sentence without the reference itself.
 */
export function flowDynamicProblem(name: string, args: readonly string[]): string | undefined {
  if (USER_SIDE_DYNAMICS.has(name)) {
    if (args[0]?.startsWith('%')) return `${name} ${args[0]} reads the variable's name from an environment setting (REST Client): write the name itself, ${name} ${args[0].slice(1)}`;
    const pattern = name === '$processEnv' ? /^\w+$/ : /^[\w.-]+$/;
    return args.length === 1 && pattern.test(args[0] as string) ? undefined : `${name} takes one name, e.g. {{${name} API_KEY}}`;
  }
  if (/^\$[A-Za-z][A-Za-z0-9]*$/.test(name)) {
    const dyn = dynamicVariable(name);
    if (dyn) return dyn.check(args);
  }
  const other = OTHER_TOOLS[name];
  if (other) return `${name} ${other}`;
  if (name.startsWith('$random.')) return `${name} is the JetBrains HTTP Client's: write {{$guid}} or {{$randomInt min max}}`;
  if (name.startsWith('$env.')) return `${name} is the JetBrains HTTP Client's: write {{$processEnv ${name.slice('$env.'.length)}}}`;
  return `unknown dynamic value ${name} (known: ${KNOWN})`;
}
