import { CLI_COMMANDS } from './commands';
import { CliIo, UsageError } from './io';

declare const __TPP_VERSION__: string | undefined;
const VERSION = typeof __TPP_VERSION__ === 'string' ? __TPP_VERSION__ : 'dev';

function help(io: CliIo): void {
  io.stdout.write(`tpp ${VERSION}: Tire Protection Partner Toolkit command line\n\nUsage: tpp <command> [options]\n\nCommands:\n`);
  for (const c of CLI_COMMANDS) io.stdout.write(`  ${c.name.padEnd(14)} ${c.summary}\n`);
  io.stdout.write(`\nRun 'tpp help <command>' for a command's options.\n`);
}

/**
 * Runs `tpp` with `argv` (without node and script). Resolves to the exit code: 0 success,
 * 1 when the command found problems, 2 on a usage error or an unreadable input. Never throws.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const target = name === 'help' && rest[0] ? CLI_COMMANDS.find((c) => c.name === rest[0])?.load() : undefined;
    if (target) io.stdout.write(`Usage: ${target.usage}\n${target.help ? `\n${target.help}\n` : ''}`);
    else help(io);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const entry = CLI_COMMANDS.find((c) => c.name === name);
  if (!entry) {
    io.stderr.write(`tpp: unknown command '${name}'. Run 'tpp help' for the list.\n`);
    return 2;
  }
  const command = entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`Usage: ${command.usage}\n${command.help ? `\n${command.help}\n` : ''}`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    // parseArgs reports unknown or malformed options with code ERR_PARSE_ARGS_*
    const code = (err as { code?: string }).code ?? '';
    if (err instanceof UsageError || code.startsWith('ERR_PARSE_ARGS')) {
      io.stderr.write(`tpp ${name}: ${(err as Error).message}\nUsage: ${command.usage}\n`);
      return 2;
    }
    io.stderr.write(`tpp ${name}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
}
