// What schema-diff.ts and its keyword-family helpers (structure-, keyword-, combinator-diff.ts)
// share. It lives apart from schema-diff.ts, which imports the helpers, so that none of them has to
// import it back: the diff modules form no cycle.
import type { RuleId, Side } from "./change-rules.js";

/** One change found in a schema: where (a JSON pointer from the flow's root), which rule, and what. */
export interface SchemaChange {
  readonly pointer: string;
  readonly rule: RuleId;
  readonly message: string;
}

/** Per-comparison state, passed down: no module state. */
export interface DiffContext {
  readonly side: Side;
  /** The whole base and head documents, for `$ref`s. */
  readonly base: unknown;
  readonly head: unknown;
  /** Pairs of (base node, head node) already compared: recursion through `$ref` stops here. */
  readonly seen: Map<object, Set<object>>;
  readonly changes: SchemaChange[];
  readonly compare: (base: unknown, head: unknown, pointer: string) => void;
  readonly report: (pointer: string, rule: RuleId, message: string) => void;
}

/** An object schema after `$ref` resolution; `true` is `{}`. */
export type Schema = Record<string, unknown>;

/** `"name"`: property names and values are data, quoted as JSON so any character shows plainly. */
export function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
