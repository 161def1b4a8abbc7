import path from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { createFormatter } from "../src/format/format-files.js";
import { optionsMayVary } from "../src/format/project-root.js";
import { tempProject } from "./helpers/temp-dir.js";

describe("output files whose prettier options could differ from file to file", () => {
  it("with no prettier config and no .editorconfig, they cannot: one set of options for each kind", async () => {
    const dir = await tempProject({ "package.json": { name: "app", private: true } });
    expect(await optionsMayVary(path.join(dir, "generated"), prettier)).toBe(false);
    const formatter = await createFormatter(path.join(dir, "generated"));
    await formatter.prepare(["@acme/qa.ts", "@acme/qa.types.ts"]);
    expect(formatter.optionsKey("@acme/qa.types.ts")).toBe(formatter.optionsKey("index.ts"));
  });

  it.each([
    ["a prettier config", ".prettierrc.json", "app/generated"],
    ["an .editorconfig in the project", "app/.editorconfig", "app/generated"],
    ["an .editorconfig above the project", ".editorconfig", "app/generated"],
  ])("with %s, they can", async (_name, file, out) => {
    const dir = await tempProject({
      [file]: file.endsWith(".json") ? { overrides: [] } : "[*.ts]\nindent_size = 4\n",
      "app/package.json": { name: "app", private: true },
    });
    expect(await optionsMayVary(path.join(dir, out), prettier)).toBe(true);
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
