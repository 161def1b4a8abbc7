import { randomBytes } from "node:crypto";
import { isPlainObject } from "../json-pointer.js";
import { patternSupport } from "../spec/pattern-flags.js";
import { mapSubschemas } from "../spec/schema-keywords.js";

/** A schema with its patterns that compile only without the `u` flag swapped for stand-ins. */
export interface StandInSchema {
  readonly schema: unknown;
  /** Stand-in → the pattern it stands for. */
  readonly standIns: ReadonlyMap<string, string>;
}

/**
 * @exodus/schemasafe compiles every pattern with the `u` flag, and refuses one that compiles only
 * without it. Such a pattern is used without the flag everywhere else (the spec checks, `flowgen
 * serve`), so the validators must too: each is given to schemasafe as a stand-in, a pattern of a
 * word unique to this run, and `restorePatterns` puts the pattern back into the code schemasafe
 * wrote, compiled without `u`.
 *
 * @example
 * const { schema, standIns } = standInPatterns(document);
 * const code = restorePatterns(validator(schema, options).toModule(), standIns);
 */
export function standInPatterns(schema: unknown): StandInSchema {
  const nonce = randomBytes(8).toString("hex");
  const standIns = new Map<string, string>();
  const standInFor = (source: string): string => {
    if (patternSupport(source).kind !== "without-unicode") return source;
    for (const [standIn, original] of standIns) if (original === source) return standIn;
    // A group, so that schemasafe compiles a RegExp rather than turning a plain word into `includes`.
    const standIn = `(?:flowgen-pattern-${nonce}-${standIns.size})`;
    standIns.set(standIn, source);
    return standIn;
  };
  const visit = (node: unknown): unknown => {
    if (!isPlainObject(node)) return node;
    const mapped = mapSubschemas(node, visit);
    if (typeof mapped.pattern === "string") mapped.pattern = standInFor(mapped.pattern);
    if (isPlainObject(mapped.patternProperties))
      mapped.patternProperties = Object.fromEntries(
        Object.entries(mapped.patternProperties).map(([key, value]) => [standInFor(key), value]),
      );
    return mapped;
  };
  return { schema: visit(schema), standIns };
}

/**
 * The validator code with each stand-in's `new RegExp("<stand-in>", "u")` replaced by the pattern
 * it stands for, without `u` (a stand-in in a schema the validator does not reach is not in it).
 * Throws when a stand-in is left in some other form: the code would check the wrong pattern.
 *
 * @example
 * restorePatterns(code, standIns);
 */
export function restorePatterns(code: string, standIns: ReadonlyMap<string, string>): string {
  let restored = code;
  for (const [standIn, original] of standIns) {
    const compiled = `new RegExp(${JSON.stringify(standIn)}, "u")`;
    restored = restored.replaceAll(compiled, `new RegExp(${JSON.stringify(original)}, "")`);
    if (restored.includes(standIn.slice(3, -1)))
      throw new Error(
        `the validator code uses the pattern ${JSON.stringify(original)} in a way flowgen cannot compile without the "u" flag`,
      );
  }
  return restored;
}
