import { RE2JS } from "re2js";
import { patternFlags } from "../spec/pattern-flags.js";

/** What Ajv's `code.regExp` must give back: something that tests a string. */
export interface PatternTest {
  test(value: string): boolean;
  /** Ajv's key for its cache of compiled patterns: one per source and flags. */
  toString(): string;
}

/** A spec pattern the linear-time engine cannot run (a back-reference, a look-around). */
export interface UnsupportedPattern {
  readonly source: string;
  /** RE2's words for what it lacks. */
  readonly reason: string;
}

/** A pattern engine for the checks serve runs on request data, and what it could not compile. */
export interface LinearPatterns {
  /** Ajv's `code.regExp`: compiles `source` for RE2, which matches in time linear in the input. */
  readonly compile: (source: string, flags: string) => PatternTest;
  /** The patterns `compile` could not run since the last call, each once; empties the list. */
  readonly takeUnsupported: () => readonly UnsupportedPattern[];
}

/**
 * Spec patterns for `flowgen serve`, compiled by re2js (RE2 in JavaScript): a request's strings
 * are matched in linear time whatever the pattern, so `^(a+)+$` cannot pin the server's CPU as a
 * backtracking `RegExp` would. RE2 has no back-references or look-arounds: such a pattern matches
 * nothing (each value it checks is refused, 400) and is listed by `takeUnsupported`, for a warning
 * at startup. A pattern that compiles only without the `u` flag is read without it, as everywhere
 * in flowgen (pattern-flags.ts); RE2 reads both spellings the same way.
 *
 * @example
 * const patterns = createLinearPatterns();
 * new Ajv2020({ code: { regExp: Object.assign(patterns.compile, { code: "re2" }) } });
 */
export function createLinearPatterns(): LinearPatterns {
  let unsupported = new Map<string, UnsupportedPattern>();
  const compile = (source: string, flags: string): PatternTest => {
    const used = patternFlags(source, flags);
    try {
      const re2 = RE2JS.compile(RE2JS.translateRegExp(source));
      return { test: (value) => re2.test(value), toString: () => `re2:/${source}/${used}` };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      unsupported.set(source, { source, reason });
      return { test: () => false, toString: () => `unsupported:/${source}/${used}` };
    }
  };
  const takeUnsupported = () => {
    const taken = [...unsupported.values()];
    unsupported = new Map();
    return taken;
  };
  return { compile, takeUnsupported };
}
