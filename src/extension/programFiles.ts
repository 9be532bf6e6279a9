import * as vscode from 'vscode';

/**
 * The programs Write Program… wrote (src/extension/commands/writeProgram.ts), as the context key
 * `tpp.programFiles` (file-system paths) for `resourcePath in tpp.programFiles`: Run in Terminal is on their editor
 * title and menus, and on no other project's file, whatever its name. Kept in global state across restarts.
 */
export const PROGRAM_FILES_CONTEXT = 'tpp.programFiles';

const STATE_KEY = 'tpp.programFiles';

/** Programs remembered at most (the newest kept). */
export const MAX_PROGRAM_FILES = 50;

/** Sets the context key from global state (activation). */
export function publishProgramFiles(state: vscode.Memento): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', PROGRAM_FILES_CONTEXT, state.get<string[]>(STATE_KEY) ?? []);
}

/** Remembers the program at `path` (a file-system path) and sets the context key. */
export async function rememberProgramFile(state: vscode.Memento, path: string): Promise<void> {
  const files = [path, ...(state.get<string[]>(STATE_KEY) ?? []).filter((f) => f !== path)].slice(0, MAX_PROGRAM_FILES);
  await state.update(STATE_KEY, files);
  await publishProgramFiles(state);
}
