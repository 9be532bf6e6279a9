import { fieldName } from '../contract/paths';
import { indentUnit, insertPropertiesEdit, lineEnding } from './edits';
import { LineIndex } from './lineIndex';
import { pathKey, type Locate, type Located } from './locate';
import type { Fix, JsonPath, Position, Problem, Range, Severity } from './types';

/**
 * Where the engine's findings go in the text (engine.ts, step 3): each draft is located (one pass over the text for
 * all of them), anchored on its value, its key or, for a missing property, the enclosing object, and given its
 * quick fix; line/character ranges follow on first read.
 */

/** A finding of the engine before it is placed in the text. */
export interface Draft {
  readonly path: JsonPath;
  readonly severity: Severity;
  readonly code: string;
  readonly message: string;
  /** value: the value's range; key: the key's range; missing: the enclosing object's key or its '{'. */
  readonly anchor: 'value' | 'key' | 'missing';
  readonly section?: string;
  readonly fix?: (loc: Located) => Fix | undefined;
  /** Missing properties are fixed together per object. */
  readonly missingIn?: string;
}

/**
 * The drafts as problems with offsets and fixes. `placeholder` gives the value a "add missing properties" fix
 * inserts for a path. Never drops a problem: one that cannot be placed (should not happen) goes on the
 * document's first character.
 */
export function placeDrafts(text: string, drafts: readonly Draft[], locate: Locate, placeholder: (path: JsonPath) => unknown): Omit<Problem, 'range'>[] {
  const out: Omit<Problem, 'range'>[] = [];
  const wanted: JsonPath[] = [];
  for (const d of drafts) {
    wanted.push(d.path);
    if (d.anchor === 'missing') wanted.push(d.path.slice(0, -1));
  }
  const located = locate(wanted);
  const fallback: Located = { start: 0, end: Math.min(1, text.length) };
  const missingByParent = new Map<string, JsonPath[]>();
  for (const d of drafts) if (d.missingIn !== undefined) missingByParent.set(d.missingIn, [...(missingByParent.get(d.missingIn) ?? []), d.path]);
  const missingFixes = new Map<string, Fix | undefined>();
  let eol: string | undefined;
  let unit: string | undefined;
  const missingFix = (parentKey: string, parentPath: JsonPath, loc: Located): Fix | undefined => {
    if (missingFixes.has(parentKey)) return missingFixes.get(parentKey);
    const entries = (missingByParent.get(parentKey) ?? []).map((p) => [p[p.length - 1] as string, placeholder(p)] as const);
    const listed = entries.map(([n]) => n).join(', ');
    const fix: Fix | undefined = entries.length ? { title: `Add missing ${entries.length === 1 ? 'property' : 'properties'} ${listed}${parentPath.length ? ` to ${fieldName(parentPath)}` : ''}`, edits: [insertPropertiesEdit(text, loc.start, loc.end, entries, (eol ??= lineEnding(text)), (unit ??= indentUnit(text)))], preferred: true } : undefined;
    missingFixes.set(parentKey, fix);
    return fix;
  };
  for (const d of drafts) {
    let start: number;
    let end: number;
    let fix: Fix | undefined;
    if (d.anchor === 'missing') {
      const parentPath = d.path.slice(0, -1);
      const found = located.get(d.missingIn!);
      const parent = found ?? fallback;
      if (parent.keyStart !== undefined) {
        start = parent.keyStart;
        end = parent.keyEnd ?? parent.keyStart;
      } else {
        start = parent.start;
        end = parent.start + 1;
      }
      fix = found ? missingFix(d.missingIn!, parentPath, found) : undefined;
    } else {
      const found = located.get(pathKey(d.path));
      const loc = found ?? fallback;
      if (d.anchor === 'key' && loc.keyStart !== undefined) {
        start = loc.keyStart;
        end = loc.keyEnd ?? loc.keyStart;
      } else {
        start = loc.start;
        end = loc.end;
      }
      fix = found ? d.fix?.(found) : undefined;
    }
    out.push({ severity: d.severity, code: d.code, message: d.message, start, end, path: d.path, section: d.section, fix });
  }
  return out;
}

/**
 * The problems sorted by position, each with its line/character `range` computed on first read, for all of them
 * at once (one sweep over the text). The editor converts offsets with its document's own line index and never
 * reads it; the CLI and the Integration Log do. The range is an own enumerable property (a getter), so spreading
 * a problem or writing it as JSON includes it.
 */
export function withRanges(text: string, found: readonly Omit<Problem, 'range'>[]): Problem[] {
  const sorted = [...found].sort((a, b) => a.start - b.start || a.end - b.end);
  let source: string | undefined = text;
  let at: Position[] | undefined;
  const positions = (): Position[] => {
    if (!at) {
      const offsets: number[] = [];
      for (const p of sorted) offsets.push(p.start, p.end);
      at = new LineIndex(source!).positionsAt(offsets);
      source = undefined; // the text is not kept once the ranges are known
    }
    return at;
  };
  return sorted.map((p, i) => {
    let range: Range | undefined;
    return {
      ...p,
      get range(): Range {
        return (range ??= { start: positions()[2 * i]!, end: positions()[2 * i + 1]! });
      },
    };
  });
}

