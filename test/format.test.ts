import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { createFormatter } from "../src/format/format-files.js";
import { readConfigSources } from "../src/format/project-root.js";
import { findProjectRoot } from "../src/project-boundary.js";
import { REPO_ROOT, tempProject } from "./helpers/temp-dir.js";

describe("generated files", () => {
  async function tsFiles(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile() && e.name.endsWith(".ts"))
      .map((e) => path.join(e.parentPath, e.name))
      .sort();
  }

  it("pass `prettier --check` with prettier's default TypeScript parser", async () => {
    const files = [
      ...(await tsFiles(path.join(REPO_ROOT, "generated"))),
      ...(await tsFiles(path.join(REPO_ROOT, "test/golden"))),
    ];
    expect(files.length).toBeGreaterThan(10);
    const unformatted: string[] = [];
    for (const file of files) {
      const text = await readFile(file, "utf8");
      if (!(await prettier.check(text, { filepath: file, parser: "typescript" })))
        unformatted.push(path.relative(REPO_ROOT, file));
    }
    expect(unformatted).toEqual([]);
  });
});

describe("the prettier config in force", () => {
  const SOURCE = { path: "example.ts", content: "const greeting = 'hello'\n" };
  const OUTSIDE = { semi: false, singleQuote: true };

  async function formatIn(dir: string): Promise<string> {
    const formatter = await createFormatter(path.join(dir, "generated"));
    return (await formatter.format(SOURCE)).content;
  }

  it("ignores a config above the project's root (the nearest folder with .git or package.json)", async () => {
    const dir = await tempProject({
      ".prettierrc": OUTSIDE,
      "app/package.json": {},
      "repo/.git/HEAD": "ref: refs/heads/main\n",
    });
    expect(findProjectRoot(path.join(dir, "app/generated"))).toBe(path.join(dir, "app"));
    expect(await formatIn(path.join(dir, "app"))).toBe('const greeting = "hello";\n');
    expect(await formatIn(path.join(dir, "repo"))).toBe('const greeting = "hello";\n');
  });

  it("uses the config at a monorepo's root for a workspace package, as prettier --check there does", async () => {
    const dir = await tempProject({
      ".prettierrc": { semi: true },
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      "repo/package.json": { private: true, workspaces: ["packages/*"] },
      "repo/.prettierrc": OUTSIDE,
      "repo/packages/app/package.json": { name: "app" },
    });
    const app = path.join(dir, "repo/packages/app");
    expect(await formatIn(app)).toBe("const greeting = 'hello'\n");
    const formatter = await createFormatter(path.join(app, "generated"));
    const file = path.join(app, "generated/example.ts");
    expect(
      await prettier.check((await formatter.format(SOURCE)).content, {
        ...(await prettier.resolveConfig(file)),
        filepath: file,
      }),
    ).toBe(true);
    // The workspace's files say so, not .git: a build context without it formats the same.
    await rm(path.join(dir, "repo/.git"), { recursive: true });
    expect(await formatIn(app)).toBe("const greeting = 'hello'\n");
  });

  it("reads no config from a repository above the project that is no workspace of it (a home folder's dotfiles)", async () => {
    const dir = await tempProject({
      ".git/HEAD": "ref: refs/heads/main\n",
      ".prettierrc": OUTSIDE,
      "code/app/package.json": { name: "app" },
    });
    expect(await formatIn(path.join(dir, "code/app"))).toBe('const greeting = "hello";\n');
  });

  it("reads the same config sources for a project wherever its repository's root is", async () => {
    const project = {
      "package.json": { name: "app" },
      ".prettierrc": OUTSIDE,
      ".editorconfig": "root = true\n[*]\nindent_style = tab\n",
    };
    const alone = await tempProject(project);
    const inRepo = await tempProject({
      ".git/HEAD": "ref: refs/heads/main\n",
      ...Object.fromEntries(Object.entries(project).map(([file, text]) => [`copy/${file}`, text])),
    });
    const sources = (dir: string) => readConfigSources(path.join(dir, "generated"), prettier);
    expect(await sources(path.join(inRepo, "copy"))).toEqual(await sources(alone));
    expect(await sources(alone)).toContain("../.prettierrc");
  });

  it("uses a config inside the project, at its root or below it", async () => {
    const dir = await tempProject({
      ".prettierrc": { semi: true },
      "app/package.json": {},
      "app/.prettierrc": OUTSIDE,
      "nested/package.json": {},
      "nested/src/.prettierrc.json": { singleQuote: true },
    });
    expect(await formatIn(path.join(dir, "app"))).toBe("const greeting = 'hello'\n");
    expect(await formatIn(path.join(dir, "nested/src"))).toBe("const greeting = 'hello';\n");
  });
});
