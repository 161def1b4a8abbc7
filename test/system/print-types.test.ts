import path from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { compileOpenApi } from "../../src/compile/openapi-document.js";
import { banner } from "../../src/emit/banner.js";
import { printTypes } from "../../src/format/print-types.js";
import { codeLayoutFor } from "../../src/format/code-layout.js";
import { buildModel } from "../../src/model/build-model.js";
import { loadSpecs } from "../../src/spec/load-specs.js";
import { flowTypeNodes } from "../../src/types/flow-types.js";
import { openapiTypescript, ts } from "../../src/types/openapi-typescript-entry.js";
import { randomDocuments } from "../helpers/random-schemas.js";
import { syntheticSpecs } from "../helpers/synthetic-specs.js";
import { REPO_ROOT, tempProject } from "../helpers/temp-dir.js";
import { DEFAULT_TS_OPTIONS } from "../../src/format/format-files.js";

const DEFAULTS: prettier.Options = DEFAULT_TS_OPTIONS;

interface TypesFile {
  readonly name: string;
  readonly header: string;
  readonly nodes: ReturnType<typeof flowTypeNodes>;
}

/** Every flow's types as generate renders them: its header and openapi-typescript's nodes. */
async function typesFiles(specsDir: string): Promise<TypesFile[]> {
  const loaded = await loadSpecs(specsDir, "/");
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues.slice(0, 3)));
  const model = buildModel(loaded.specs);
  return model.flows.map((flow) => ({
    name: flow.specPath,
    header: banner(`the spec ${flow.specPath}`),
    nodes: flowTypeNodes(
      JSON.stringify(compileOpenApi(model, [flow], { baseUrl: undefined, compact: true })),
    ),
  }));
}

/** What prettier prints for the text openapi-typescript's own printer gives. */
function prettierTypes(file: TypesFile, options: prettier.Options): Promise<string> {
  return prettier.format(`${file.header}\n\n${openapiTypescript.astToString(file.nodes)}`, options);
}

/** Files where `printTypes` differs from prettier, by name; and how many it left to prettier. */
async function compare(
  files: readonly TypesFile[],
  options: prettier.Options,
): Promise<{ differing: string[]; unsupported: number }> {
  const layout = codeLayoutFor(options);
  if (layout === undefined) throw new Error(`no layout for ${JSON.stringify(options)}`);
  const differing: string[] = [];
  let unsupported = 0;
  for (const file of files) {
    const printed = printTypes(file.header, file.nodes, layout);
    if (printed === undefined) unsupported++;
    else if (printed !== (await prettierTypes(file, options))) differing.push(file.name);
  }
  return { differing, unsupported };
}

describe("printTypes", () => {
  it("prints the repo's specs and every golden and real-world fixture exactly as prettier formats openapi-typescript's text", async () => {
    const dirs = [
      "specs",
      "test/golden/edge-cases/specs",
      "test/golden/collisions/specs",
      "test/fixtures/real-world/specs",
    ];
    const files = (
      await Promise.all(dirs.map((dir) => typesFiles(path.join(REPO_ROOT, dir))))
    ).flat();
    expect(files.length).toBeGreaterThan(20);
    expect(await compare(files, DEFAULTS)).toEqual({ differing: [], unsupported: 0 });
  });

  it("prints a large synthetic project exactly as prettier does, under other widths, indents, quotes and line ends", async () => {
    const files = [
      ...(await typesFiles(path.join(await tempProject(syntheticSpecs(20, 7)), "specs"))),
      ...(await typesFiles(path.join(await tempProject(syntheticSpecs(20, 19)), "specs"))),
    ];
    for (const options of [
      DEFAULTS,
      { ...DEFAULTS, printWidth: 40, singleQuote: true },
      { ...DEFAULTS, printWidth: 120, tabWidth: 4, trailingComma: "none" as const },
      {
        ...DEFAULTS,
        useTabs: true,
        bracketSpacing: false,
        experimentalOperatorPosition: "start" as const,
        endOfLine: "crlf" as const,
      },
    ]) {
      expect({ options, ...(await compare(files, options)) }).toEqual({
        options,
        differing: [],
        unsupported: 0,
      });
    }
  });

  it("prints hand-written shapes as prettier does: long unions, nested unions and intersections, tuples, awkward keys and literals", async () => {
    const long = (prefix: string) =>
      Array.from({ length: 9 }, (_, i) => `${prefix}-value-number-${i}`);
    const schemas = {
      Pet: { type: "object", required: ["kind"], properties: { kind: { type: "string" } } },
      Everything: {
        type: "object",
        properties: {
          status: { type: "string", enum: long("status") },
          short: { type: "string", enum: ["a", "b"] },
          nested: {
            type: "array",
            items: {
              oneOf: [
                { type: "string", enum: long("nested") },
                { $ref: "#/components/schemas/Pet" },
              ],
            },
          },
          mixed: {
            allOf: [
              { $ref: "#/components/schemas/Pet" },
              { type: "object", properties: { extra: { type: "integer" } } },
              { $ref: "#/components/schemas/Pet" },
            ],
          },
          maybe: { oneOf: [{ $ref: "#/components/schemas/Pet" }, { type: "null" }] },
          pair: {
            type: "array",
            prefixItems: [{ type: "string" }, { type: "number" }],
            items: false,
            minItems: 2,
          },
          rest: {
            type: "array",
            prefixItems: [{ type: "string" }, { type: "number" }],
            items: { type: "boolean" },
          },
          numbers: { type: "number", enum: [-1, 0.5, 1e21, 200] },
          quotes: {
            type: "string",
            enum: ["it's", 'say "hi"', "both ' and \"", "caf\u00e9 \u6587\u5b57", "back\\slash"],
          },
          "200": { type: "string" },
          "with space": { type: "string" },
          "caf\u00e9": { type: "string" },
          map: {
            type: "object",
            additionalProperties: {
              oneOf: [{ type: "string", enum: long("map") }, { type: "integer" }],
            },
          },
        },
      },
    };
    const document = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {},
      components: { schemas },
    };
    const file = {
      name: "hand-written",
      header: banner("a test"),
      nodes: flowTypeNodes(JSON.stringify(document)),
    };
    for (const options of [
      DEFAULTS,
      { ...DEFAULTS, printWidth: 30 },
      { ...DEFAULTS, printWidth: 200, singleQuote: true },
    ]) {
      expect({ options, ...(await compare([file], options)) }).toEqual({
        options,
        differing: [],
        unsupported: 0,
      });
    }
  });

  it("prints random documents of every schema kind, names and descriptions as prettier does, under random options", async () => {
    let state = 11;
    const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
    const documents = randomDocuments(40, 5);
    const differing: string[] = [];
    let compared = 0;
    for (const [index, document] of documents.entries()) {
      const file = {
        name: `random ${index}`,
        header: banner("a test"),
        nodes: flowTypeNodes(JSON.stringify(document)),
      };
      const options: prettier.Options = {
        ...DEFAULTS,
        printWidth: [40, 80, 120][index % 3],
        tabWidth: random() < 0.3 ? 4 : 2,
        useTabs: random() < 0.2,
        singleQuote: random() < 0.3,
        trailingComma: random() < 0.3 ? "none" : "all",
        bracketSpacing: random() < 0.8,
        experimentalOperatorPosition: random() < 0.3 ? "start" : "end",
      };
      // openapi-typescript writes some shapes prettier's babel-ts parser refuses (`-3.25[]`, which TypeScript reads): skip those.
      const expected = await prettierTypes(file, options).catch(() => undefined);
      if (expected === undefined) continue;
      compared++;
      if (
        printTypes(
          file.header,
          file.nodes,
          codeLayoutFor(options) as NonNullable<ReturnType<typeof codeLayoutFor>>,
        ) !== expected
      )
        differing.push(file.name);
    }
    expect(compared).toBeGreaterThan(30);
    expect(differing).toEqual([]);
  });

  it("prints a union or intersection of one type as that type, as TypeScript's printer writes it", async () => {
    const f = ts.factory;
    const member = (name: string, type: import("typescript").TypeNode) =>
      f.createPropertySignature(undefined, name, undefined, type);
    const keyword = (kind: import("typescript").KeywordTypeSyntaxKind) =>
      f.createKeywordTypeNode(kind);
    const single = f.createUnionTypeNode([keyword(ts.SyntaxKind.BooleanKeyword)]);
    const members = [
      member("list", f.createArrayTypeNode(single)),
      member(
        "either",
        f.createUnionTypeNode([
          single,
          f.createIntersectionTypeNode([keyword(ts.SyntaxKind.NumberKeyword)]),
        ]),
      ),
      member(
        "both",
        f.createIntersectionTypeNode([
          f.createLiteralTypeNode(f.createNumericLiteral(42)),
          f.createArrayTypeNode(single),
        ]),
      ),
    ];
    const file = {
      name: "single",
      header: banner("a test"),
      nodes: [
        f.createInterfaceDeclaration(
          [f.createModifier(ts.SyntaxKind.ExportKeyword)],
          "components",
          undefined,
          undefined,
          members,
        ),
      ],
    };
    expect(await compare([file], DEFAULTS)).toEqual({ differing: [], unsupported: 0 });
  });

  it("leaves shapes it does not know to prettier, and so do options it does not follow", () => {
    const generic = ts.factory.createTypeAliasDeclaration(
      undefined,
      "Pick2",
      [ts.factory.createTypeParameterDeclaration(undefined, "T")],
      ts.factory.createTypeReferenceNode("T"),
    );
    expect(
      printTypes(
        banner("a test"),
        [generic],
        codeLayoutFor(DEFAULTS) as NonNullable<ReturnType<typeof codeLayoutFor>>,
      ),
    ).toBeUndefined();
    expect(
      printTypes(
        "// two\nlines",
        [],
        codeLayoutFor(DEFAULTS) as NonNullable<ReturnType<typeof codeLayoutFor>>,
      ),
    ).toBeUndefined();
    for (const options of [
      { semi: false },
      { quoteProps: "consistent" as const },
      { objectWrap: "collapse" as const },
      { plugins: ["prettier-plugin-x"] },
      { parser: "flow" },
      { requirePragma: true },
      { someFutureOption: 1 },
    ]) {
      expect({
        options,
        layout: codeLayoutFor({ ...DEFAULTS, ...options }),
      }).toEqual({ options, layout: undefined });
    }
    expect(
      codeLayoutFor({
        ...DEFAULTS,
        filepath: "x.types.ts",
        arrowParens: "avoid",
        proseWrap: "always",
      }),
    ).toBeDefined();
  });
});
