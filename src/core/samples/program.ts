/**
 * Programs that run as they are written (the editor's Write Program…): the code sample of a request, which also loads
 * the dotenv file of Connect Your Application (../connect/dotenv.ts) itself, so that one command in a terminal runs it
 * (spec: Authentication; the variables of SAMPLE_ENV). Node.js loads it in its standard way (`process.loadEnvFile`);
 * Python has none, so a few lines of its standard library do, no package. The other languages need more than a file
 * and a command — C#, Java and Go a build with their JWT library, PHP Composer's packages, curl the `tpp` command that
 * mints its token — so Copy as Code gives their program. No editor, no I/O.
 */
import { SAMPLE_LANGUAGE_INFO, type SampleLanguage } from './info';

/** The languages a program is written in, in the order they are offered. */
export const PROGRAM_LANGUAGES = ['python', 'node'] as const satisfies readonly SampleLanguage[];
export type ProgramLanguage = (typeof PROGRAM_LANGUAGES)[number];

/** Whether `s` names a language a runnable program is written in. */
export function isProgramLanguage(s: string): s is ProgramLanguage {
  return (PROGRAM_LANGUAGES as readonly string[]).includes(s);
}

/** A file name as one word of a terminal's shell: bare when plain, else in double quotes (POSIX shells, PowerShell, cmd). */
function word(file: string): string {
  return /^[\w.@%+=:,/-]+$/.test(file) ? file : `"${file.replace(/"/g, '')}"`;
}

/**
 * What a program needs installed, the command that runs the file `file` from its folder (in a terminal of
 * `platform`), and which file names are its language's.
 */
export const PROGRAM_INFO: Readonly<Record<ProgramLanguage, { readonly needs: string; readonly command: (file: string, platform: NodeJS.Platform) => string; readonly files: RegExp }>> = {
  python: { needs: 'requests and PyJWT[crypto] (pip install requests "PyJWT[crypto]")', command: (file, platform) => `${platform === 'win32' ? 'python' : 'python3'} ${word(file)}`, files: /\.py$/i },
  node: { needs: 'Node.js 20.12 or later and jose (npm install jose)', command: (file) => `node ${word(file)}`, files: /\.(js|mjs|cjs)$/i },
};

/** The language of a program file, from its name (`.py`: Python; `.js`, `.mjs`, `.cjs`: Node.js). */
export function programLanguageOf(fileName: string): ProgramLanguage | undefined {
  return PROGRAM_LANGUAGES.find((l) => PROGRAM_INFO[l].files.test(fileName));
}

/**
 * The values a program reads from a dotenv file `text`, as its loader reads them (NAME=value lines; a value quoted
 * whole loses its quotes; `#` lines are comments): what the editor compares with the environment's current settings.
 */
export function dotenvValues(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const eq = line.indexOf('=');
    if (eq <= 0 || line.startsWith('#')) continue;
    const value = line.slice(eq + 1);
    const quoted = value.length >= 2 && value[0] === value.at(-1) && (value[0] === "'" || value[0] === '"');
    out[line.slice(0, eq)] = quoted ? value.slice(1, -1) : value;
  }
  return out;
}

/** Most names {@link programFileName} tries before it gives up. */
export const MAX_PROGRAM_NAMES = 99;

/**
 * The file name of a new program in a folder: the language's sample name (`tpp_sample.py`, `tpp-sample.js`), else the
 * first of `tpp_sample_2.py`, `tpp_sample_3.py`… that is free, so that nothing is replaced. A name whose file already
 * holds the same text is taken again (`same`). Undefined when the first {@link MAX_PROGRAM_NAMES} names are taken.
 *
 * @param taken whether a file (or anything) of that name is in the folder.
 * @param same whether the file of that name holds exactly the program's text.
 */
export function programFileName(language: ProgramLanguage, taken: (name: string) => boolean, same: (name: string) => boolean = () => false): string | undefined {
  const first = SAMPLE_LANGUAGE_INFO[language].fileName;
  const dot = first.lastIndexOf('.');
  const sep = first.includes('_') ? '_' : '-';
  for (let n = 1; n <= MAX_PROGRAM_NAMES; n++) {
    const name = n === 1 ? first : `${first.slice(0, dot)}${sep}${n}${first.slice(dot)}`;
    if (!taken(name) || same(name)) return name;
  }
  return undefined;
}
