/**
 * Flows: `.http` request files run as tests (docs/flows.md). The shapes shared by the parser (`parse.ts`), the
 * assertion evaluator (`assert.ts`), the executor (`run.ts`) and their two drivers, `tpp run` (src/cli) and the
 * editor's Test Explorer (src/extension). Types only, so the drivers depend on this file and not on each other.
 *
 * Positions are 1-based lines and columns, as editors and compilers print them. Durations are milliseconds.
 */
import type { EnvironmentId } from '../environments';
import type { Exchange } from '../exchange/types';
import type { ClientEnvironment, ToolkitClient } from '../client/clientFor';

/** A place in a flow file. */
export interface FlowPosition {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

/** A problem found in a flow file: syntax, an unknown variable or request name, a body its endpoint refuses. */
export interface FlowProblem extends FlowPosition {
  /** The file as the caller named it (a path for `tpp run`, a URI string in the editor). */
  readonly file: string;
  readonly message: string;
  /** `error` stops the file from running (exit 2 from `tpp run`); `warning` does not. */
  readonly severity: 'error' | 'warning';
  /** Position of the end of the faulty text, when known (for editor ranges). */
  readonly end?: FlowPosition;
  /** Stable code for quick fixes and docs, e.g. `flow-syntax`, `flow-unknown-variable`, `flow-unknown-request`. */
  readonly code?: string;
}

/** One `?? …` line after a request (httpyac's form). */
export interface FlowAssertion extends FlowPosition {
  /** The whole line after `??`, trimmed, for messages. */
  readonly text: string;
  /** What is checked: `status`, `header <name>`, `body <jsonpath>`, `duration`, or `contract` (the contract's answer for the endpoint). */
  readonly subject:
    | { readonly kind: 'status' }
    | { readonly kind: 'header'; readonly name: string }
    | { readonly kind: 'body'; readonly path: string; readonly length?: boolean }
    | { readonly kind: 'duration' }
    | { readonly kind: 'contract' };
  /** Absent for `contract` and for a bare `exists`-less subject. */
  readonly operator?: '==' | '!=' | '<' | '<=' | '>' | '>=' | 'exists' | 'includes' | 'matches';
  /** The expected value as written (variables are resolved at run time). */
  readonly expected?: string;
  /** 1-based column where `expected` starts (for messages about its variables). */
  readonly expectedColumn?: number;
}

/** A `< ./file` or `<@ ./file` line of a body: the file sent as it is, or with its `{{variables}}` resolved. */
export interface FlowBodyFile extends FlowPosition {
  readonly path: string;
  readonly resolveVariables: boolean;
}

/**
 * A request's body: inline text, or a file read as REST Client reads it.
 * - `inline`: the body's lines joined with `\n` (comment lines left out, as both tools leave them out). `files` are
 *   its `< file` lines (a multipart body's parts: `index` is the line in `text`), replaced by the files when sent;
 *   `graphql` says the text is a GraphQL query and its variables, sent as `{"query", "operationName", "variables"}`
 *   the way that tool builds it (REST Client's `X-Request-Type: GraphQL`, httpyac's `query`/`mutation` detection).
 * - `file`: a body that is one `< ./file` line.
 */
export type FlowBody =
  | ({ readonly kind: 'inline'; readonly text: string; readonly files?: readonly (FlowBodyFile & { readonly index: number })[]; readonly graphql?: 'rest-client' | 'httpyac' } & FlowPosition)
  /** `< ./file` sent as it is (`resolveVariables: false`), `<@ ./file` with its `{{variables}}` resolved. */
  | ({ readonly kind: 'file' } & FlowBodyFile);

/** `# @prompt name [description]`: a value the user gives when the request runs (`--var name=…`, the editor asks). */
export interface FlowPrompt extends FlowPosition {
  readonly name: string;
  readonly description?: string;
}

/** One request of a flow file, between `###` separators. */
export interface FlowRequest extends FlowPosition {
  /** 0-based index in its file. */
  readonly index: number;
  /** `# @name reg`; later requests read its answer as `{{reg.response.body.$._id}}`. */
  readonly name?: string;
  readonly method: string;
  /** The URL as written, variables unresolved. */
  readonly url: string;
  /** 1-based column where `url` starts on the request line. */
  readonly urlColumn?: number;
  /** The text after `###` on the separator line that opens this request, if any. */
  readonly title?: string;
  /** Headers as written; `valueColumn` is the 1-based column where the value starts. */
  readonly headers: readonly ({ readonly name: string; readonly value: string; readonly valueColumn?: number } & FlowPosition)[];
  readonly body?: FlowBody;
  readonly assertions: readonly FlowAssertion[];
  /** Last line of the request's block (for editor ranges). */
  readonly endLine: number;
  /** A short label for lists and reports: the `###` title, else the name, else `METHOD url`. */
  readonly label: string;
  /** `# @disabled`: not sent, reported skipped (the position of that line). */
  readonly disabled?: FlowPosition;
  /** `# @no-redirect`: a redirect answer is the request's answer (else redirects are followed, as both tools do). */
  readonly noRedirect?: boolean;
  /** `# @no-cookie-jar`: the request neither sends nor keeps the cookies of the file's run. */
  readonly noCookieJar?: boolean;
  /** `# @prompt` lines of the request. */
  readonly prompts?: readonly FlowPrompt[];
  /** httpyac's `GRAPHQL` request line: sent as POST, with `Content-Type: application/json` unless one is written. */
  readonly graphqlMethod?: boolean;
}

/** A `# @var company [what it is]` line: a name given from outside the file (`--var`, `tpp.variables`; declared.ts). */
export interface DeclaredVariable extends FlowPosition {
  readonly name: string;
  /** The words after the name, if any. */
  readonly description?: string;
}

/** A parsed flow file. Parsing never throws: what it cannot read is a problem. */
export interface FlowFile {
  readonly file: string;
  /** File variables (`@shop = 1042`), in order. Later definitions win. */
  readonly variables: readonly ({ readonly name: string; readonly value: string } & FlowPosition)[];
  /** Names declared with `# @var` (absent when none). */
  readonly declared?: readonly DeclaredVariable[];
  readonly requests: readonly FlowRequest[];
  readonly problems: readonly FlowProblem[];
}

/**
 * Where a flow runs: an environment's addresses (`baseUrl` ending in /api/v3, the JWT `aud`; `v2BaseUrl` and
 * `eligibilityBaseUrl` by the rule of environments.ts when absent), its Partner ID and token sources (a fresh JWT per
 * attempt; requests to the environment's addresses without an Authorization header get one).
 */
export type FlowEnvironment = ClientEnvironment & { readonly id: EnvironmentId };

/** The outcome of one assertion. */
export interface AssertionResult {
  readonly assertion: FlowAssertion;
  readonly passed: boolean;
  /** What was expected, as shown to the user (for the Test Explorer's diff). */
  readonly expected?: string;
  /** What the answer had. */
  readonly actual?: string;
  /** One sentence; for `contract`, the difference from what the contract declares. */
  readonly message: string;
}

/**
 * How one request ended: `passed` (answered, every assertion held), `failed` (answered, an assertion failed),
 * `errored` (no answer, outcome unknown, or a variable that could not be resolved: exit 3 / 2), `skipped` (not run:
 * an earlier request of its flow errored, or `--bail`, or cancelled).
 */
export interface RequestResult {
  readonly file: string;
  readonly request: FlowRequest;
  readonly outcome: 'passed' | 'failed' | 'errored' | 'skipped';
  readonly assertions: readonly AssertionResult[];
  /** The exchange as the response view, history and Integration Log show it (absent when nothing was sent). */
  readonly exchange?: Exchange;
  readonly durationMs: number;
  /** Why it errored or was skipped. */
  readonly message?: string;
  /** Where in the file the reason is, when it is not the request's own line (a problem found before the run). */
  readonly at?: FlowPosition;
}

/** What a run reports while it goes. */
export interface FlowRunListener {
  onRequestStart?(file: string, request: FlowRequest): void;
  onRequestEnd?(result: RequestResult): void;
}

/** Options of a run. */
export interface FlowRunOptions {
  readonly environment: FlowEnvironment;
  /**
   * Reads a file named by `< file` / `<@ file`, relative to the flow file (the editor reads open documents).
   * `flowFile` is the `file` of the flow being run (its path or URI string), for readers shared by several files.
   */
  readonly readFile: (path: string, flowFile: string) => Promise<string>;
  /**
   * Reads the bytes of a file named by a `< file` part of a multipart body (an image…), relative to the flow file;
   * absent: `readFile`'s text as UTF-8, and a file that is not UTF-8 text is refused.
   */
  readonly readBytes?: (path: string, flowFile: string) => Promise<Uint8Array>;
  /** Variables given from outside (settings `tpp.variables`, `tpp run --var`); file variables override them. */
  readonly variables?: Readonly<Record<string, string>>;
  /**
   * Asks the user for the value of a `# @prompt name [description]` line when its request runs (the editor's input
   * box; `initial` is the value `variables` gives, if any). Resolves to undefined when the user cancels: the request
   * is then not sent. Absent (`tpp run`): the value is `variables`' (`--var name=…`), checked before the run.
   */
  readonly prompt?: (request: FlowRequest, prompt: FlowPrompt, initial: string | undefined) => Promise<string | undefined>;
  /** The process environment `{{$processEnv NAME}}` reads (`tpp run`: its own); absent: `{{$processEnv}}` cannot be resolved. */
  readonly processEnv?: Readonly<Record<string, string | undefined>>;
  /** Only these request indexes (with the named requests they read from, run first). All when absent. */
  readonly only?: readonly number[];
  /** Stop the whole run at the first failed or errored request. */
  readonly bail?: boolean;
  readonly signal?: AbortSignal;
  readonly listener?: FlowRunListener;
  /**
   * Hosts outside the environment that may receive values of the user's side (docs/flows.md, What a flow may do):
   * `tpp run --allow-host`, the editor's prompt. Absent: such a request is not sent.
   */
  readonly hosts?: HostPolicy;
  /**
   * The client requests leave through (client/clientFor.ts): the editor's, with its history, data events and the
   * user's retry and timeout settings. Absent: one is made for `environment` with the run's limits.
   */
  readonly client?: ToolkitClient;
}

/**
 * What a flow request may carry to hosts outside its environment (docs/flows.md, What a flow may do; carried.ts).
 */
/** A value of the user's side that a request carries. */
export type Carried =
  | { readonly kind: 'body-file'; readonly path: string }
  | { readonly kind: 'partner-id' }
  | { readonly kind: 'variable'; readonly name: string }
  /** What the user answered to a `# @prompt` (typed, or the `tpp.variables` value it was filled in with). */
  | { readonly kind: 'prompt'; readonly name: string }
  | { readonly kind: 'row'; readonly name: string }
  | { readonly kind: 'answer'; readonly request: string }
  /** `{{$processEnv NAME}}`, `{{$dotenv NAME}}`: read from the user's machine. */
  | { readonly kind: 'process-env'; readonly name: string }
  | { readonly kind: 'dotenv'; readonly name: string }
  /** A cookie of the file's cookie jar that an answer of the environment set. */
  | { readonly kind: 'cookie'; readonly name: string };

/** How hosts outside the environment are treated: those the user allowed, and a question for the others (the editor). */
export interface HostPolicy {
  /** Hosts allowed: `host` (any port) or `host:port`, as `--allow-host` takes them. */
  readonly allowed?: readonly string[];
  /** Asked before a request carries values to `host`; true sends it. Absent: refused. */
  readonly confirm?: (host: string, carried: readonly Carried[]) => Promise<boolean>;
  /** How the user allows `host`, ending a refusal's message; absent: `tpp run`'s `--allow-host <host>`. */
  readonly howToAllow?: (host: string) => string;
}
