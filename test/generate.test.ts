import { readFile, rm, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { renderProject } from "../src/generate.js";
import { diffOutput } from "../src/write/write-output.js";
import { REPO_ROOT, tempProject } from "./helpers/temp-dir.js";
import { GOLDEN, goldenCases } from "./helpers/golden-cases.js";
import { outputPatch } from "./helpers/output-patch.js";
import { banner } from "../src/emit/banner.js";
import { RUNTIME_DIR } from "../src/emit/runtime-exports.js";
import { readRuntimeTemplates } from "../src/runtime-templates.js";

/** Fails with the unified diff itself as the message: vitest's own diff of a patch against "" would prefix every line again. */
function expectSameTree(patch: string): void {
  if (patch !== "") expect.fail(`the rendered tree differs from the committed one:\n${patch}`);
}

async function render(cwd: string, specs = "specs") {
  const result = await renderProject({ specs, out: "generated", cwd });
  if (!result.ok) throw new Error(JSON.stringify(result.issues, null, 2));
  return result.files;
}

/** Each golden case rendered once for this file: tests only read what it renders. */
const goldenRenders = new Map<string, ReturnType<typeof render>>();
function renderGolden(name: string): ReturnType<typeof render> {
  let rendered = goldenRenders.get(name);
  if (rendered === undefined) {
    rendered = render(path.join(GOLDEN, name));
    goldenRenders.set(name, rendered);
  }
  return rendered;
}

describe("the repo's own generated/", () => {
  it("is what the specs give (run `npm run generate` after changing specs/)", async () => {
    const files = await render(REPO_ROOT);
    const dir = path.join(REPO_ROOT, "generated");
    expectSameTree(await outputPatch(dir, files, await diffOutput(dir, files)));
  });

  it("holds an OpenAPI document that passes an external OpenAPI 3.1 validator", async () => {
    const document = JSON.parse(
      await readFile(path.join(REPO_ROOT, "generated/openapi.json"), "utf8"),
    ) as GeneratedDocument;
    const result = await new Validator().validate(document as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(Object.keys(document.paths)).toEqual([
      "/v1/@acme/invoice",
      "/v1/@acme/org-chart",
      "/v1/@acme/qa",
      "/v1/@acme/search",
      "/v1/@globex/search",
    ]);
    const qa = document.paths["/v1/@acme/qa"]?.post;
    expect(qa?.operationId).toBe("acme.qa");
    expect(qa?.requestBody.required).toBe(true);
    expect(Object.keys(qa?.responses ?? {})).toEqual([
      "200",
      "400",
      "401",
      "403",
      "404",
      "413",
      "415",
      "429",
      "500",
      "503",
    ]);
    expect(document.components.responses.TooManyRequests?.headers["Retry-After"]).toBeDefined();
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components.schemas["acme.search.Input"]).toBeDefined();
    expect(document.components.schemas["globex.search.Input"]).toBeDefined();
  });
});

describe("golden output", async () => {
  const cases = await goldenCases();

  // The runtime is left out of golden trees (the next test checks it is copied as it is), so their diffs show the emitter's changes only.
  it.each(cases)(
    "%s: the whole tree, runtime aside, matches its expected/ folder (UPDATE_GOLDEN=1 rewrites it)",
    async (name) => {
      const dir = path.join(GOLDEN, name);
      const files = (await renderGolden(name)).filter(
        (file) => !file.path.startsWith(`${RUNTIME_DIR}/`),
      );
      const expectedDir = path.join(dir, "expected");
      if (process.env.UPDATE_GOLDEN === "1") {
        await rm(expectedDir, { recursive: true, force: true });
        for (const file of files) {
          await mkdir(path.dirname(path.join(expectedDir, file.path)), { recursive: true });
          await writeFile(path.join(expectedDir, file.path), file.content);
        }
      }
      expectSameTree(await outputPatch(expectedDir, files, await diffOutput(expectedDir, files)));
    },
  );

  it("copies templates/runtime/ into runtime/ as it is, under the banner, and nothing else there", async () => {
    const files = await renderGolden(cases[0] ?? "");
    const copied = files.filter((file) => file.path.startsWith(`${RUNTIME_DIR}/`));
    const sources = await readRuntimeTemplates();
    expect(copied.map((file) => file.path)).toEqual(
      sources.map((source) => `${RUNTIME_DIR}/${source.name}`),
    );
    for (const [i, source] of sources.entries()) {
      expect(copied[i]?.content, source.name).toBe(
        `${banner(`templates/${RUNTIME_DIR}/${source.name} in flowgen`)}\n${source.text}`,
      );
    }
  });
});

describe("the golden runner's patch", () => {
  it("shows the changed lines of each differing file, and files only on one side", async () => {
    // An output folder to diffOutput is one flowgen wrote: its index.ts starts with the banner.
    const index = `${banner("a test")}\n`;
    const dir = await tempProject({
      "index.ts": index,
      "a.ts": "export const a = 1;\nexport const b = 2;\n",
      "gone.ts": "export {};\n",
      "same.ts": "export {};\n",
    });
    const files = [
      { path: "a.ts", content: "export const a = 1;\nexport const b = 3;\n" },
      { path: "index.ts", content: index },
      { path: "new.ts", content: "export const n = 0;\n" },
      { path: "same.ts", content: "export {};\n" },
    ];
    expect(await outputPatch(dir, files, await diffOutput(dir, files))).toMatchInlineSnapshot(`
      "===================================================================
      --- expected/a.ts
      +++ rendered/a.ts
      @@ -1,2 +1,2 @@
       export const a = 1;
      -export const b = 2;
      +export const b = 3;
      ===================================================================
      --- expected/gone.ts
      +++ rendered/gone.ts
      @@ -1,1 +0,0 @@
      -export {};
      ===================================================================
      --- expected/new.ts
      +++ rendered/new.ts
      @@ -0,0 +1,1 @@
      +export const n = 0;
      "
    `);
  });
});

/** The parts of generated/openapi.json the test above reads. */
interface GeneratedDocument {
  paths: Record<
    string,
    { post: { operationId: string; requestBody: { required: boolean }; responses: object } }
  >;
  components: {
    responses: Record<string, { headers: Record<string, unknown> }>;
    schemas: Record<string, unknown>;
  };
  security: unknown;
}

describe("determinism", () => {
  it("gives byte-identical files whatever order the files were created in", async () => {
    const specs: Record<string, string> = Object.fromEntries(
      await Promise.all(
        [
          "@acme/qa.json",
          "@acme/invoice.json",
          "@acme/org-chart.yaml",
          "@acme/search.json",
          "@globex/search.json",
          "_shared/money.json",
        ].map(async (p): Promise<[string, string]> => [
          `specs/${p}`,
          await readFile(path.join(REPO_ROOT, "specs", p), "utf8"),
        ]),
      ),
    );
    const forward = await tempProject(specs);
    const backward = await tempProject(Object.fromEntries(Object.entries(specs).reverse()));
    const [a, b, c] = await Promise.all([render(forward), render(backward), render(forward)]);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    const today = new Date().toISOString().slice(0, 10);
    for (const file of a) {
      expect(file.content).not.toMatch(/\r|\/tmp|flowgen-test-/);
      expect(file.content).not.toContain(today);
    }
  });

  it("escapes spec text so it cannot leave a comment or a string", async () => {
    const files = await renderGolden("edge-cases");
    const module = files.find((file) => file.path === "@acme/class.ts")?.content ?? "";
    expect(module).toContain("*\\/ export const x = 1; /\\*");
    expect(module).not.toMatch(/^export const (x|y)\b/m);
  });
});
