/**
 * Shapes of the payload diagnostics engine (docs/diagnostics.md; spec: Resources and their fields, Data type
 * formats (v2)). Offsets are UTF-16 code unit offsets into the document text;
 * lines and characters are 0-based (the CLI prints them 1-based).
 */

export type { JsonPath } from '../contract/paths';
import type { JsonPath } from '../contract/paths';

export type Severity = 'error' | 'warning';

/** 0-based line and character (UTF-16 code units), as in LSP and VS Code. */
export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

/** A text replacement: `length` characters at `offset` become `newText`. */
export interface TextEdit {
  readonly offset: number;
  readonly length: number;
  readonly newText: string;
}

/** A quick fix the editor can offer for a problem (the same fix may be attached to several problems). */
export interface Fix {
  readonly title: string;
  readonly edits: readonly TextEdit[];
  /** True when this is the obvious fix (VS Code's "preferred" quick fix). */
  readonly preferred?: boolean;
}

/**
 * Rule identifiers (the `code` of a problem). Contract rules come from the zod issue (`required`,
 * `max-length`, `money`, ...); the others are syntax and semantic checks of this module.
 */
export type RuleCode = string;

/** One problem found in a payload document. */
export interface Problem {
  readonly severity: Severity;
  /** Text in the spec's words, naming the property and the limit, e.g. "ShopID: at most 25 characters, got 31". */
  readonly message: string;
  readonly code: RuleCode;
  /** Where: start and end offsets in the text. */
  readonly start: number;
  readonly end: number;
  /** The same place as 0-based line/character, computed on first read (for all the problems of a document at once). */
  readonly range: Range;
  /** JSON path of the value concerned (for a missing property: the path of the property itself). */
  readonly path: JsonPath;
  /** Heading of the spec section that states the rule, when there is one (e.g. "Registration (v2)"). */
  readonly section?: string;
  readonly fix?: Fix;
}
