import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { diffCommand } from "../src/cli/diff-command.js";
import { generateCommand } from "../src/cli/generate-command.js";
import { initCommand } from "../src/cli/init-command.js";
import { newCommand } from "../src/cli/new-command.js";
import { serveCommand } from "../src/cli/serve-command.js";
import { verifyCommand } from "../src/cli/verify-command.js";
import type { Command } from "../src/cli/command.js";
import { GENERATE_KEYS, SERVE_KEYS } from "../src/config/config-keys.js";
import { CHANGE_RULES } from "../src/diff/change-rules.js";
import { ISSUE_CODES, formatIssue } from "../src/issues.js";
import { errorBodyCodes } from "../src/model/error-codes.js";
import { loadSpecs } from "../src/spec/load-specs.js";
import {
  anchors,
  codeBlocks,
  links,
  readPages,
  tableAfter,
  type CodeBlock,
  type Page,
} from "./helpers/markdown.js";
import { REPO_ROOT, tempProject } from "./helpers/temp-dir.js";

const pages = readPages();
const page = (file: string): Page => {
  const found = pages.find((candidate) => candidate.file === file);
  if (found === undefined) throw new Error(`${file} is missing`);
  return found;
};
const blocks = pages.flatMap(codeBlocks);
const where = (block: CodeBlock) => `${block.page}:${block.line}`;

/** The pages that document each command's flags: every flag is on one of them. */
const COMMAND_PAGES: readonly (readonly [Command, readonly string[]])[] = [
  [generateCommand, ["docs/cli.md", "docs/generate.md"]],
  [serveCommand, ["docs/serve.md"]],
  [diffCommand, ["docs/breaking-changes.md"]],
  [verifyCommand, ["docs/verify.md"]],
  [initCommand, ["docs/cli.md"]],
  [newCommand, ["docs/cli.md", "docs/specs.md"]],
];
const GLOBAL_FLAGS = ["config", "help", "h", "version", "v"];

describe("docs/errors.md", () => {
  it("documents exactly the problem codes flowgen has, in the same order", () => {
    const documented = [...page("docs/errors.md").text.matchAll(/^## (.+)$/gm)].map(
      (match) => match[1],
    );
    expect(documented).toEqual(Object.keys(ISSUE_CODES));
  });

  it("every printed problem ends with its code and the anchor of its section", () => {
    const sections = anchors(page("docs/errors.md"));
    for (const code of Object.keys(ISSUE_CODES) as (keyof typeof ISSUE_CODES)[]) {
      const line = formatIssue({ code, file: "specs/@acme/qa.json", message: "what is wrong" });
      expect(line).toBe(
        `specs/@acme/qa.json: what is wrong [${code}] flowgen-cli/docs/errors.md#${code}`,
      );
      expect(sections).toContain(code);
    }
  });
});

describe("the JSON blocks of the README and docs/", () => {
  it("parse, and a spec in one passes flowgen's checks", async () => {
    const json = blocks.filter((block) => block.lang === "json");
    expect(json.length).toBeGreaterThan(1);
    for (const block of json)
      expect(() => JSON.parse(block.code) as unknown, where(block)).not.toThrow();
    const specs = json.filter((block) => block.code.includes("flow-spec.schema.json"));
    expect(specs.map(where)).toEqual(["docs/specs.md:13"]);
    for (const block of specs) {
      const dir = await tempProject({
        "package.json": { name: "docs-spec", private: true },
        "specs/@acme/qa.json": block.code,
      });
      const result = await loadSpecs(path.join(dir, "specs"), dir);
      expect(result.ok ? [] : result.issues.map(formatIssue), where(block)).toEqual([]);
    }
  });
});

describe("the shell commands of the README and docs/", () => {
  it("name commands and flags flowgen has", () => {
    const lines = blocks
      .filter((block) => block.lang === "sh")
      .flatMap((block) =>
        block.code
          .split("\n")
          .filter((line) => /\bnpx flowgen /.test(line))
          .map((line) => [where(block), line] as const),
      );
    expect(lines.length).toBeGreaterThan(10);
    for (const [at, line] of lines) {
      const words = (line.split(/\bnpx flowgen /)[1] ?? "").split("#")[0]?.trim().split(/\s+/);
      const command = COMMAND_PAGES.find(([candidate]) => words?.[0] === commandName(candidate));
      expect(command, `${at}: ${line}`).toBeDefined();
      const known = [...Object.keys(command?.[0].options ?? {}), ...GLOBAL_FLAGS];
      for (const flag of words?.filter((word) => word.startsWith("-")) ?? []) {
        const name = flag.replace(/^--?(no-)?/, "").replace(/=.*$/, "");
        expect(known, `${at}: ${flag}`).toContain(name);
      }
    }
  });

  it("every flag of every command is documented on its page", () => {
    for (const [command, files] of COMMAND_PAGES) {
      const text = files.map((file) => page(file).text).join("\n");
      for (const flag of Object.keys(command.options))
        expect(text, `${commandName(command)} --${flag} in ${files.join(" or ")}`).toContain(
          `--${flag}`,
        );
    }
  });
});

describe("links", () => {
  it("lead to files that exist and to headings that exist", () => {
    const broken: string[] = [];
    for (const from of pages) {
      for (const target of links(from)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [file = "", anchor] = target.split("#");
        const to = file === "" ? from.file : path.join(path.dirname(from.file), file);
        if (!existsSync(path.join(REPO_ROOT, to))) broken.push(`${from.file}: ${target}`);
        else if (anchor !== undefined && to.endsWith(".md") && !anchors(page(to)).has(anchor))
          broken.push(`${from.file}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("tables that mirror code", () => {
  it("the rule table of docs/breaking-changes.md is CHANGE_RULES", () => {
    const rows = tableAfter(page("docs/breaking-changes.md"), "## The rules");
    const documented = Object.fromEntries(
      rows.map(([rule = "", input = "", output = ""]) => [
        /^`([a-z-]+)`/.exec(rule)?.[1],
        { input: firstWord(input), output: firstWord(output) },
      ]),
    );
    const rules = Object.fromEntries(
      Object.entries(CHANGE_RULES).map(([rule, { input, output }]) => [rule, { input, output }]),
    );
    expect(documented).toEqual(rules);
  });

  it("docs/config.md names every config key", () => {
    const text = page("docs/config.md").text;
    for (const key of [...Object.keys(GENERATE_KEYS), ...Object.keys(SERVE_KEYS)])
      expect(text, key).toContain(`\`${key}\``);
  });

  it("docs/error-body.md lists the codes of the error body, as the OpenAPI description does", () => {
    const [, cell = ""] = tableAfter(page("docs/error-body.md"), "# The error body")[0] ?? [];
    const listed = cell.split(". New codes")[0] ?? "";
    const codes = [...listed.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]);
    expect(codes).toEqual(errorBodyCodes());
  });
});

function commandName(command: Command): string {
  return command.usage.split(" ")[0] ?? "";
}

function firstWord(cell: string): string {
  return /^[a-z]+/.exec(cell)?.[0] ?? cell;
}
