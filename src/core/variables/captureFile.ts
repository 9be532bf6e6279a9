import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Captures } from './captures';

/**
 * Captures kept between `tpp send` runs (so `tpp send registration.json` then `tpp send claim.json` works as in the
 * editor), in one JSON file keyed by target (`<v3 base address> <Partner ID>`): an id captured on one sandbox is
 * never sent to another. A missing or damaged file is an empty store; writes replace the file atomically (write,
 * then rename). Only ids and the fields of sent bodies are kept: never a token or a key.
 */
export class CaptureFile {
  constructor(private readonly path: string) {}

  /** `$TPP_CAPTURES_FILE`, else `$XDG_STATE_HOME/tpp/captures.json`, else `~/.local/state/tpp/captures.json`. */
  static defaultPath(env: NodeJS.ProcessEnv = process.env): string {
    if (env.TPP_CAPTURES_FILE) return env.TPP_CAPTURES_FILE;
    return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'tpp', 'captures.json');
  }

  private readAll(): Record<string, Captures> {
    try {
      const v = JSON.parse(readFileSync(this.path, 'utf8')) as unknown;
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, Captures>) : {};
    } catch {
      return {};
    }
  }

  /** The captures of `target` (`{}` when none). */
  load(target: string): Captures {
    return this.readAll()[target] ?? {};
  }

  /**
   * Stores the captures of `target`, keeping the other targets'.
   * @throws the file system's error (e.g. ENOSPC, EACCES) — the caller reports it; the old file is left whole.
   */
  save(target: string, captures: Captures): void {
    const all = { ...this.readAll(), [target]: captures };
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(all, null, 2) + '\n', { mode: 0o600 });
    renameSync(tmp, this.path);
  }
}
