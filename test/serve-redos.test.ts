import { readdirSync } from "node:fs";
import { check } from "recheck";
import { describe, expect, it, vi } from "vitest";
import { surveyRegexes, type RegexLiteral } from "./helpers/regex-literals.js";
import { serveFlow } from "./helpers/serve.js";
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
    // Patterns built at run time cannot be checked here: write them as literals. The one exception,
    // the `regex` format, compiles a request's string to see whether it is one and never runs it.
    expect([...own.constructed, ...requestPath.constructed]).toEqual([
      expect.stringMatching(/^src\/serve\/linear-formats\.ts:\d+$/),
    ]);
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

const KEY = "k_redos_0123456789abcdef";

describe("spec patterns in flowgen serve", () => {
  it("match request data in linear time: ^(a+)+$ refuses 30 a's and a '!' at once", async () => {
    const { post, said } = await serveFlow(
      "greedy",
      {
        type: "object",
        properties: {
          name: { type: "string", pattern: "^(a+)+$" },
          // Compiles only without the u flag: still read, and as without it.
          code: { type: "string", pattern: "^\\:(a|b)+$" },
        },
      },
      KEY,
    );
    // A backtracking engine takes 2^30 steps here: the test's timeout is what fails then.
    expect(await post({ name: `${"a".repeat(30)}!` })).toMatchObject({
      status: 400,
      body: {
        code: "invalid_input",
        details: [{ pointer: "/name", message: 'must match pattern "^(a+)+$"' }],
      },
    });
    expect((await post({ name: "a".repeat(100_000) })).status).toBe(200);
    expect((await post({ code: ":abba" })).status).toBe(200);
    expect((await post({ code: ":abc" })).status).toBe(400);
    expect(said.filter((line) => line.includes("nonlinear-pattern"))).toEqual([]);
  }, 5_000);

  it("start with a pattern RE2 cannot run, warn, and refuse the values it checks", async () => {
    const flow = await serveFlow(
      "lookaround",
      {
        type: "object",
        properties: {
          word: { type: "string", pattern: "^(?!admin$)[a-z]+$" },
          other: { type: "string", pattern: "^[a-z]+$" },
        },
      },
      KEY,
    );
    const { said } = flow;
    const post = async (body: unknown) => (await flow.post(body)).status;
    expect(said.filter((line) => line.includes("nonlinear-pattern"))).toEqual([
      expect.stringMatching(
        /^warning: specs\/@acme\/lookaround\.json #\/input: the pattern "\^\(\?!admin\$\)\[a-z\]\+\$" needs a feature serve's linear-time engine \(RE2\) lacks/,
      ),
    ]);
    expect(await post({ other: "abc" })).toBe(200);
    expect(await post({ word: "abc" })).toBe(400);
  });
});
