import { createServer } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import type { IssueCode } from "../src/issues.js";
import { runCli } from "./helpers/run-cli.js";
import { tempProject, writeFiles } from "./helpers/temp-dir.js";

const SPEC = {
  input: { type: "object", properties: { q: { type: "string" } } },
  output: { type: "object", properties: { a: { type: "string" } } },
};
const PROJECT = { "package.json": { name: "p", private: true }, "specs/@acme/qa.json": SPEC };

/** A port something already listens on, for as long as the test runs. */
async function busyPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  return String(typeof address === "object" && address !== null ? address.port : 0);
}

// Errors the CLI prints that are not problems in a file: each ends with its code and the link to
// the code's section of docs/errors.md, as formatIssue ends a problem (docs.test.ts checks those).
const CASES: readonly (readonly [
  string,
  Record<string, unknown>,
  () => Promise<string[]>,
  IssueCode,
])[] = [
  ["a mistyped flag", PROJECT, () => Promise.resolve(["generate", "--chek"]), "invalid-option"],
  ["a flow id without @", PROJECT, () => Promise.resolve(["new", "acme/x"]), "invalid-flow-name"],
  ["a flow that has a spec", PROJECT, () => Promise.resolve(["new", "@acme/qa"]), "duplicate-flow"],
  [
    "init on a broken package.json",
    { "package.json": "{" },
    () => Promise.resolve(["init"]),
    "syntax-error",
  ],
  [
    "diff from nothing",
    PROJECT,
    () => Promise.resolve(["diff", "--base", "nowhere"]),
    "unreadable-contract",
  ],
  [
    "serve with a keys file that holds no keys",
    { ...PROJECT, "keys.json": {} },
    () => Promise.resolve(["serve", "--keys-file", "keys.json"]),
    "invalid-keys",
  ],
  [
    "serve with a handler that does not load",
    { ...PROJECT, "handlers/@acme/qa.mjs": "export default {" },
    () => Promise.resolve(["serve", "--no-watch", "--port", "0"]),
    "invalid-handler",
  ],
  [
    "serve with half the TLS options",
    PROJECT,
    () => Promise.resolve(["serve", "--tls-cert", "cert.pem"]),
    "invalid-tls",
  ],
  [
    "serve with a rate out of range",
    PROJECT,
    () => Promise.resolve(["serve", "--error-rate", "2"]),
    "invalid-option",
  ],
  [
    "serve on a port in use",
    PROJECT,
    async () => ["serve", "--no-watch", "--port", await busyPort()],
    "cannot-listen",
  ],
];

describe("CLI errors that are not problems in a file", () => {
  it.each(CASES)(
    "%s: exit 2, and the error ends with its code's link",
    async (_, files, argv, code) => {
      const dir = await tempProject(files);
      const run = await runCli(dir, ...(await argv()));
      expect(run.code, run.stderr).toBe(2);
      const lines = run.stderr.trimEnd().split("\n");
      expect(
        lines.filter((line) => line.endsWith(` [${code}] flowgen-cli/docs/errors.md#${code}`)),
        run.stderr,
      ).toHaveLength(1);
    },
  );

  it("serve prints each problem of a keys file on its own line, each with its link", async () => {
    const keys = { keys: [{ key: "has space" }, { key: "has\ttab" }] };
    const dir = await tempProject({ ...PROJECT, "keys.json": keys });
    const run = await runCli(dir, "serve", "--keys-file", "keys.json");
    expect(run.code, run.stderr).toBe(2);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines, run.stderr).toHaveLength(2);
    for (const line of lines)
      expect(line).toMatch(
        /^flowgen serve: .* \[invalid-keys\] flowgen-cli\/docs\/errors\.md#invalid-keys$/,
      );
  });

  it("a contract change refused by --fail-on-breaking ends with the breaking-change link", async () => {
    const dir = await tempProject(PROJECT);
    expect((await runCli(dir, "generate")).code).toBe(0);
    const narrowed = { ...SPEC, input: { ...SPEC.input, required: ["q"] } };
    await writeFiles(dir, { "specs/@acme/qa.json": narrowed });
    const run = await runCli(dir, "generate", "--fail-on-breaking");
    expect(run.code).toBe(4);
    expect(run.stderr.trimEnd().split("\n").at(-1)).toBe(
      "flowgen: 1 change would break callers; nothing was written (--fail-on-breaking). [breaking-change] flowgen-cli/docs/errors.md#breaking-change",
    );
  });
});
