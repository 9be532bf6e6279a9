/**
 * The elements of a JSON array file read as a stream (docs/backfills.md, Data files): the top-level array is cut into
 * its elements without holding the file, each parsed on its own, so a file of millions of rows keeps memory flat. An
 * element longer than {@link MAX_ROW_CHARS} is refused rather than buffered.
 */

/** The longest text of one row (one array element or one NDJSON line), in UTF-16 code units (1 MiB). */
export const MAX_ROW_CHARS = 1 << 20;

/** One element's text and the 1-based line it starts on. */
export interface JsonElement {
  readonly text: string;
  readonly line: number;
}

/** A file that is not a JSON array of rows; `line` is 1-based. */
export class JsonRowsError extends Error {
  override readonly name = 'JsonRowsError';
  constructor(
    readonly reason: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

/** Scanner state carried from chunk to chunk. */
interface Scan {
  depth: number;
  inString: boolean;
  escaped: boolean;
  started: boolean;
  ended: boolean;
  line: number;
  element: string;
  elementLine: number;
}

/** Feeds one chunk; pushes finished elements to `out`. */
function feed(s: Scan, chunk: string, out: JsonElement[]): void {
  let from = -1;
  const flush = (to: number) => {
    if (from >= 0) s.element += chunk.slice(from, to);
    from = -1;
    if (s.element.length > MAX_ROW_CHARS) throw new JsonRowsError(`a row is longer than ${MAX_ROW_CHARS} characters`, s.elementLine);
  };
  const endElement = () => {
    const text = s.element.trim();
    if (text !== '') out.push({ text, line: s.elementLine });
    else throw new JsonRowsError('an empty element (two commas, or a comma before ])', s.line);
    s.element = '';
  };
  for (let i = 0; i < chunk.length; i++) {
    const c = chunk[i] as string;
    if (c === '\n') s.line++;
    if (s.ended) {
      if (!/\s/.test(c)) throw new JsonRowsError('text after the closing ] of the array', s.line);
      continue;
    }
    if (!s.started) {
      if (c === '\uFEFF' || /\s/.test(c)) continue;
      if (c !== '[') throw new JsonRowsError('a .json data file must be an array of row objects: [ {…}, {…} ]', s.line);
      s.started = true;
      continue;
    }
    if (s.inString) {
      if (s.escaped) s.escaped = false;
      else if (c === '\\') s.escaped = true;
      else if (c === '"') s.inString = false;
    } else if (c === '"') s.inString = true;
    else if (c === '[' || c === '{') s.depth++;
    else if ((c === ']' || c === '}') && s.depth > 0) s.depth--;
    else if (s.depth === 0 && (c === ',' || c === ']')) {
      flush(i);
      if (c === ',' || s.element.trim() !== '') endElement();
      if (c === ']') s.ended = true;
      continue;
    }
    if (from < 0) {
      if (s.element === '' && /\s/.test(c)) continue;
      if (s.element === '') s.elementLine = s.line;
      from = i;
    }
  }
  flush(chunk.length);
}

/**
 * The elements of the JSON array read from `chunks`, in order.
 * @throws JsonRowsError when the text is not an array, an element is empty or too long, or the array is not closed.
 */
export async function* jsonArrayElements(chunks: AsyncIterable<string>): AsyncGenerator<JsonElement> {
  const s: Scan = { depth: 0, inString: false, escaped: false, started: false, ended: false, line: 1, element: '', elementLine: 1 };
  for await (const chunk of chunks) {
    const out: JsonElement[] = [];
    feed(s, chunk, out);
    yield* out;
  }
  if (!s.started) throw new JsonRowsError('the data file is empty', 1);
  if (!s.ended) throw new JsonRowsError('the array is not closed with ]: the file ends early', s.line);
}
