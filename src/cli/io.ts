/** Where a CLI command writes; injected so that tests capture the output. */
export interface CliIo {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
}

/** A `tpp` subcommand. `run` resolves to the process exit code (0 ok, 1 failure found, 2 usage or read error). */
export interface CliCommand {
  readonly name: string;
  /** Usage text, printed by `tpp help <name>` and on usage errors. */
  readonly usage: string;
  /** Longer help printed after the usage by `--help`/`-h` and `tpp help <name>`. */
  readonly help?: string;
  run(args: string[], io: CliIo): Promise<number>;
}

const USAGE_ERROR = Symbol.for('tpp.cli.UsageError');

/**
 * A usage error: printed with the command's usage, exit code 2. Each command is a bundle of its own in dist/
 * with its own copy of this class, so `instanceof` checks a registered symbol instead of the class identity.
 */
export class UsageError extends Error {
  readonly [USAGE_ERROR] = true;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && USAGE_ERROR in value;
  }
}
