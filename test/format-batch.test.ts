import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { formatBatch } from "../src/format/format-batch.js";
import { REPO_ROOT } from "./helpers/temp-dir.js";

const OPTIONS: prettier.Options = { parser: "babel-ts", printWidth: 80, trailingComma: "all" };

/** The same code with its layout lost: indentation gone, so prettier has to lay every line out again. */
function unformat(text: string): string {
  return text.replace(/^[ \t]+/gm, "");
}

async function formatOneByOne(
  contents: readonly string[],
  options: prettier.Options,
): Promise<string[]> {
  const formatted: string[] = [];
  for (const content of contents) formatted.push(await prettier.format(content, options));
  return formatted;
}

async function generatedFiles(dir: string): Promise<{ path: string; content: string }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  // The runtime folder is a copy of templates/runtime/; matched inside `dir`, so a checkout whose own path holds "runtime" still counts.
  const files = entries.filter(
    (e) =>
      e.isFile() &&
      e.name.endsWith(".ts") &&
      !path.relative(dir, e.parentPath).split(path.sep).includes("runtime"),
  );
  return Promise.all(
    files.map(async (e) => ({
      path: path.join(e.parentPath, e.name),
      content: await readFile(path.join(e.parentPath, e.name), "utf8"),
    })),
  );
}

describe("formatBatch", () => {
  it("prints every golden and repo module as prettier does one file at a time, in batches of any size", async () => {
    const files = [
      ...(await generatedFiles(path.join(REPO_ROOT, "generated"))),
      ...(await generatedFiles(path.join(REPO_ROOT, "test/golden"))),
    ];
    expect(files.length).toBeGreaterThan(20);
    const inputs = files.map((file) => unformat(file.content));
    const expected = await formatOneByOne(inputs, OPTIONS);
    // Unformatting really lost the layout, and prettier restores it: the inputs are a fair test.
    expect(inputs.filter((input, i) => input !== expected[i]).length).toBeGreaterThan(
      files.length / 2,
    );
    expect(expected).toEqual(files.map((file) => file.content));
    for (const size of [7, files.length]) {
      const batched: string[] = [];
      for (let i = 0; i < inputs.length; i += size)
        batched.push(...(await formatBatch(inputs.slice(i, i + size), OPTIONS, prettier)));
      expect(batched).toEqual(expected);
    }
  });

  it("formats one file at a time when a setting acts on whole files, and names the file prettier refuses", async () => {
    const contents = ["// a\nexport const a = 1;\n", "// b\nexport const b = 2;\n"];
    const withPragma = { ...OPTIONS, insertPragma: true };
    expect(await formatBatch(contents, withPragma, prettier)).toEqual(
      await formatOneByOne(contents, withPragma),
    );
    expect(
      (await formatBatch(contents, withPragma, prettier)).every((text) =>
        text.startsWith("/** @format */"),
      ),
    ).toBe(true);
    const crlf = { ...OPTIONS, endOfLine: "crlf" as const };
    expect(await formatBatch(contents, crlf, prettier)).toEqual(
      await formatOneByOne(contents, crlf),
    );
    const directive = ['"use client";\nexport const a = 1;\n', "export const b = 2;\n"];
    expect(await formatBatch(directive, OPTIONS, prettier)).toEqual(
      await formatOneByOne(directive, OPTIONS),
    );
    await expect(
      formatBatch(["export const a = 1;\n", "export const = ;\n"], OPTIONS, prettier),
    ).rejects.toThrow(/Unexpected token|Expected/);
  });

  it("keeps each file's own blank lines and comments at its edges out of its neighbours", async () => {
    const contents = [
      "\n\n// first\nexport type A = 1;\n\n\n// trailing comment\n",
      "/** doc */\nexport type B = 2;",
      "export type C = 3;\n\n",
    ];
    expect(await formatBatch(contents, OPTIONS, prettier)).toEqual(
      await formatOneByOne(contents, OPTIONS),
    );
  });

  // A file without a final `;` followed by one whose first statement starts with `(`, `[`, a
  // template literal or an operator: joined naively, ASI does not end the first file's last
  // statement, and prettier prints the two as one call, index, tagged template or expression.
  it.each([
    ["a parenthesised call", "(function () {})();\n"],
    ["an array destructuring", "[a, b] = [b, a];\n"],
    ["a comment, then a template literal", "// c\n`a ${b}`;\n"],
    ["a comment, then a parenthesis", "// c\n(a as number).toFixed();\n"],
    ["a block comment, then a bracket", "/* c */ [1].map(f)\n"],
    ["a unary minus", "-1\n"],
    ["a regular expression", "/re/.test(a)\n"],
  ])(
    "prints a file starting with %s after one without a final `;` as alone, in one call",
    async (_, next) => {
      const previous = ["let a = 1, b = 2\nexport const c = a", "export const c = a // note\n"];
      for (const [options, first] of cross([OPTIONS, { ...OPTIONS, semi: false }], previous)) {
        const contents = [first, next, "export const d = 4\n"];
        const { prettier: counting, calls } = countFormatCalls();
        expect(await formatBatch(contents, options, counting)).toEqual(
          await formatOneByOne(contents, options),
        );
        // Joined, not saved by the one-file-at-a-time fallback.
        expect(calls()).toBe(1);
      }
    },
  );
});

function cross<A, B>(as: readonly A[], bs: readonly B[]): [A, B][] {
  return as.flatMap((a) => bs.map((b): [A, B] => [a, b]));
}

/** prettier, counting its `format` calls: one call means formatBatch joined the files. */
function countFormatCalls(): { prettier: typeof prettier; calls: () => number } {
  let count = 0;
  const format: typeof prettier.format = (text, options) => {
    count++;
    return prettier.format(text, options);
  };
  return { prettier: { ...prettier, format }, calls: () => count };
}
