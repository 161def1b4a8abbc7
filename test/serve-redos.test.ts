import { readdirSync } from "node:fs";
import { check } from "recheck";
import { describe, expect, it, vi } from "vitest";
import { surveyRegexes, type RegexLiteral } from "./helpers/regex-literals.js";
import { REPO_ROOT } from "./helpers/temp-dir.js";

/**
 * Every regular expression of the server (src/serve/, and what its request path imports) must
 * run in linear time whatever a caller sends: recheck proves it from the expression's automaton,
 * exactly and without timing anything, so a new expression is checked the day it is written.
 */
const SERVE_FILES = readdirSync(`${REPO_ROOT}/src/serve`)
  .filter((name) => name.endsWith(".ts"))
  .map((name) => `src/serve/${name}`);
const own = surveyRegexes(REPO_ROOT, SERVE_FILES, false);
const requestPath = surveyRegexes(REPO_ROOT, ["src/serve/app.ts"], true);
const literals = [
  ...new Map(
    [...own.literals, ...requestPath.literals].map((literal) => [
      literal.where + literal.source,
      literal,
    ]),
  ).values(),
];

describe("regular expressions of flowgen serve", () => {
  it("are all literals, found in every file of src/serve/ and on the request path", () => {
    // Patterns built at run time cannot be checked here: write them as literals.
    expect([...own.constructed, ...requestPath.constructed]).toEqual([]);
    expect(requestPath.files).toEqual(
      expect.arrayContaining([
        "src/serve/admission.ts",
        "src/serve/json-body.ts",
        "src/json-pointer.ts",
      ]),
    );
    expect(literals.length).toBeGreaterThanOrEqual(20);
    expect(literals.map((literal) => literal.where)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^src\/serve\/keys\.ts:/)]),
    );
  });

  it.each(
    literals.map((literal): [string, RegexLiteral] => [
      `${literal.where} /${literal.source}/${literal.flags}`,
      literal,
    ]),
  )(
    "%s runs in linear time",
    async (_, literal) => {
      // The pure-JavaScript checker: the same answer on every machine, with no binary or JVM.
      vi.stubEnv("RECHECK_BACKEND", "pure");
      const diagnostics = await check(literal.source, literal.flags, {
        checker: "automaton",
        timeout: null,
      });
      const verdict =
        diagnostics.status === "vulnerable"
          ? `${diagnostics.complexity.summary}, e.g. ${JSON.stringify(diagnostics.attack.pattern)}`
          : diagnostics.status === "unknown"
            ? `not decidable (${diagnostics.error.kind}); write it without look-arounds or back-references, or as a loop`
            : "linear";
      expect(verdict).toBe("linear");
    },
    30_000,
  );
});
