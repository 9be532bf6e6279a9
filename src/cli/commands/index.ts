import { CliCommand } from '../io';

/**
 * One `tpp` subcommand as `tpp help` lists it. Its code is loaded only when it runs (or prints its own
 * help): `dist/cli.js` holds this table and nothing heavy, and each command below is a bundle of its own
 * (`dist/cli-<name>.js`, scripts/build.mjs), so `tpp validate` never loads the sandbox's HTTP server, its
 * database or the HTTP client. Keep the `require` paths literal: the build maps each to its bundle.
 */
export interface CliCommandEntry {
  readonly name: string;
  /** One line for `tpp help`. */
  readonly summary: string;
  /** Loads the command's module (synchronously, once; Node caches it). */
  load(): CliCommand;
}

/** Every `tpp` subcommand, in the order `tpp help` lists them. Add new commands here. */
export const CLI_COMMANDS: readonly CliCommandEntry[] = [
  { name: 'code', summary: 'Print a program that sends a payload file in curl, Node, Python, C#, Java, Go or PHP', load: () => (require('./code') as typeof import('./code')).codeCommand },
  { name: 'connect', summary: 'Print or write the dotenv file an application reads to call an environment', load: () => (require('./connect') as typeof import('./connect')).connectCommand },
  { name: 'docs', summary: "Print the toolkit's reference pages (tpp docs lists them; tpp docs sandbox)", load: () => (require('./docs') as typeof import('./docs')).docsCommand },
  { name: 'environments', summary: 'List the environments (Local, Sandbox, Production)', load: () => (require('./environments') as typeof import('./environments')).environmentsCommand },
  { name: 'keygen', summary: 'Generate an ECDSA key pair (PKCS#8 private key, SPKI public key)', load: () => (require('./keygen') as typeof import('./keygen')).keygenCommand },
  { name: 'jwt', summary: 'Mint a partner JWT, or inspect one against every rule of the spec', load: () => (require('./jwt') as typeof import('./jwt')).jwtCommand },
  { name: 'openapi', summary: 'Print the OpenAPI 3.1 document of the partner interface', load: () => (require('./openapi') as typeof import('./openapi')).openapiCommand },
  { name: 'proxy', summary: "Explain your application's requests to Sandbox or Production (a loopback proxy)", load: () => (require('./proxy') as typeof import('./proxy')).proxyCommand },
  { name: 'record', summary: 'Write a regression flow (.http) from what was sent: a tpp sandbox journal or a tpp proxy log', load: () => (require('./record') as typeof import('./record')).recordCommand },
  { name: 'run', summary: 'Run .http flow files as tests (assertions, JUnit XML), for CI', load: () => (require('./run') as typeof import('./run')).runCommand },
  { name: 'sandbox', summary: 'Run the Local sandbox (an emulator of the whole partner API)', load: () => (require('./sandbox') as typeof import('./sandbox')).sandboxCommand },
  { name: 'send', summary: 'Send payload files to a partner API (retries, duplicate-safe creates), for CI', load: () => (require('./send') as typeof import('./send')).sendCommand },
  { name: 'validate', summary: 'Check payload .json files against the contract (as the editor does)', load: () => (require('./validate') as typeof import('./validate')).validateCommand },
];
