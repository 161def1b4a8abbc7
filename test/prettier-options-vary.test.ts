import path from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { createFormatter } from "../src/format/format-files.js";
import { renderProject } from "../src/generate.js";
import { editorconfigReader } from "../src/format/editorconfig.js";
import { optionsMayVary } from "../src/format/project-root.js";
import { tempProject } from "./helpers/temp-dir.js";

const QA = {
  input: { type: "object", required: ["question"], properties: { question: { type: "string" } } },
  output: { type: "object", required: ["answer"], properties: { answer: { type: "string" } } },
};

describe("output files whose prettier options could differ from file to file", () => {
  it("with no prettier config and no .editorconfig, they cannot: one set of options for each kind", async () => {
    const dir = await tempProject({ "package.json": { name: "app", private: true } });
    expect(await optionsMayVary(path.join(dir, "generated"), prettier)).toBe(false);
    const formatter = await createFormatter(path.join(dir, "generated"));
    await formatter.prepare(["@acme/qa.ts", "@acme/qa.types.ts"]);
    expect(formatter.optionsKey("@acme/qa.types.ts")).toBe(formatter.optionsKey("index.ts"));
  });

  it.each([
    ["a prettier config", ".prettierrc.json", "app/generated", true],
    ["an .editorconfig in the project", "app/.editorconfig", "app/generated", true],
    [
      "an .editorconfig above the project, in its repository",
      ".editorconfig",
      "app/generated",
      true,
    ],
    [
      "only an .editorconfig above a project in no repository",
      ".editorconfig",
      "app/generated",
      false,
    ],
  ])("with %s: %s", async (name, file, out, can) => {
    const dir = await tempProject({
      [file]: file.endsWith(".json") ? { overrides: [] } : "[*.ts]\nindent_size = 4\n",
      "app/package.json": { name: "app", private: true },
      ...(name.includes("repository") && !name.includes("no repository")
        ? { ".git/HEAD": "ref: refs/heads/main\n" }
        : {}),
    });
    expect(await optionsMayVary(path.join(dir, out), prettier)).toBe(can);
  });

  it("outside any repository, reads .editorconfig files up to the project's root only, as prettier reads them up to a repository's", async () => {
    const project = {
      "app/package.json": { name: "app", private: true },
      "app/.editorconfig": "[*.ts]\nindent_size = 4\n[generated/@acme/**]\nquote_type = single\n",
      "app/specs/@acme/qa.json": QA,
    };
    const outside = await tempProject({
      ...project,
      ".editorconfig": "root = true\n[*]\nindent_style = tab\nmax_line_length = 40\n",
    });
    const alone = await tempProject(project);
    const render = async (dir: string) => {
      const result = await renderProject({
        specs: "specs",
        out: "generated",
        cwd: path.join(dir, "app"),
      });
      if (!result.ok) throw new Error(JSON.stringify(result.issues));
      return new Map(result.files.map((file) => [file.path, file.content]));
    };
    const [withOutside, withoutOutside] = await Promise.all([render(outside), render(alone)]);
    expect(withOutside).toEqual(withoutOutside);
    // The project's own .editorconfig still applies.
    expect(withOutside.get("@acme/qa.ts")).toMatch(/\n {4}\S/);
    expect(withOutside.get("@acme/qa.ts")).toContain("from '../runtime/index.js'");
  });

  it("maps .editorconfig as prettier does, read up to the root prettier stops at", async () => {
    const dir = await tempProject({
      ".git/HEAD": "ref: refs/heads/main\n",
      ".editorconfig":
        "[*]\nindent_style = space\nindent_size = 3\nend_of_line = crlf\n[*.md]\nmax_line_length = off\n[tabs/**]\nindent_style = tab\ntab_width = 6\n",
      "a/.editorconfig": "[*.ts]\nquote_type = single\nmax_line_length = 90\nindent_size = tab\n",
      "a/b/.editorconfig": "root = true\n[*]\nquote_type = double\n",
    });
    const read = editorconfigReader(dir);
    for (const file of [
      "x.ts",
      "x.md",
      "tabs/y.ts",
      "a/x.ts",
      "a/x.json",
      "a/b/x.ts",
      "a/b/c/x.ts",
    ]) {
      const theirs =
        (await prettier.resolveConfig(path.join(dir, file), { editorconfig: true })) ?? {};
      expect(await read(path.join(dir, file)), file).toEqual(theirs);
    }
  });

  it("resolves each file's options when an .editorconfig section names some of them", async () => {
    const dir = await tempProject({
      "package.json": { name: "app", private: true },
      ".editorconfig": "[generated/**.types.ts]\nindent_size = 4\n",
    });
    const formatter = await createFormatter(path.join(dir, "generated"));
    await formatter.prepare(["@acme/qa.ts", "@acme/qa.types.ts"]);
    expect(formatter.optionsFor("@acme/qa.types.ts").tabWidth).toBe(4);
    expect(formatter.optionsFor("@acme/qa.ts").tabWidth).toBe(2);
  });
});

describe("types files whose options differ from their folder's first one", () => {
  it.each([
    ["by folder", "generated/@globex/**"],
    ["by file name, within a folder", "search.types.ts"],
  ])(
    "are rendered with their own, overridden %s: the threads start with each folder's first file's options, and a file whose own differ is rendered again",
    async (_, files) => {
      const flow = (name: string) => ({
        input: {
          type: "object",
          properties: { options: { type: "array", items: { enum: ["first", "second", name] } } },
        },
        output: { type: "object", properties: { answer: { type: "string" } } },
      });
      const dir = await tempProject({
        "package.json": { name: "app", private: true },
        ".prettierrc.json": { overrides: [{ files, options: { printWidth: 40 } }] },
        "specs/@acme/qa.json": flow("third"),
        "specs/@globex/lookup.json": flow("fifth"),
        "specs/@globex/search.json": flow("fourth"),
      });
      const result = await renderProject({ specs: "specs", out: "generated", cwd: dir });
      if (!result.ok) throw new Error(JSON.stringify(result.issues));
      const unformatted: string[] = [];
      for (const file of result.files.filter((each) => each.path.endsWith(".ts"))) {
        const filepath = path.join(dir, "generated", file.path);
        const options = await prettier.resolveConfig(filepath);
        if (!(await prettier.check(file.content, { ...options, filepath })))
          unformatted.push(file.path);
      }
      expect(unformatted).toEqual([]);
      const types = result.files.find((file) => file.path === "@globex/search.types.ts");
      expect(types?.content).toMatch(/\n {6}options\?: \(\n/);
    },
  );
});

describe("prettier config inside the output folder's org folders", () => {
  it.each([
    ["beside a config of the project", { ".prettierrc.json": { printWidth: 100 } }],
    ["in a project with no config but an .editorconfig", { ".editorconfig": "root = true\n" }],
  ])(
    "does not count %s: those folders hold flowgen's files only, and the config is looked up from the output folder",
    async (_, project) => {
      const dir = await tempProject({
        "package.json": { name: "app", private: true },
        ...project,
        "generated/@acme/.prettierrc.json": { semi: false },
        "specs/@acme/qa.json": { input: { type: "object" }, output: { type: "object" } },
      });
      const result = await renderProject({ specs: "specs", out: "generated", cwd: dir });
      if (!result.ok) throw new Error(JSON.stringify(result.issues));
      const module = result.files.find((file) => file.path === "@acme/qa.ts");
      expect(module?.content).toContain('from "../runtime/index.js";');
    },
  );
});
