import { describe, expect, it } from "vitest";
import { buildModel } from "../src/model/build-model.js";
import { loadSpecs } from "../src/spec/load-specs.js";
import { tempProject } from "./helpers/temp-dir.js";

async function model(files: Record<string, unknown>) {
  const dir = await tempProject(files);
  const loaded = await loadSpecs("specs", dir);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  return buildModel(loaded.specs);
}

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

describe("bundling schemas into OpenAPI components", () => {
  it("names roots, $defs and shared files after where they live, and rewrites every $ref", async () => {
    const result = await model({
      "specs/_shared/money.json": object(
        { currency: { $ref: "#/$defs/Currency" } },
        { $defs: { Currency: { enum: ["EUR"] }, Unused: { type: "string" } } },
      ),
      "specs/@acme/pay.json": {
        input: object(
          { amount: { $ref: "../_shared/money.json" }, node: { $ref: "#/$defs/Node" } },
          {
            $defs: { Node: object({ next: { $ref: "#/$defs/Node" }, root: { $ref: "#" } }) },
          },
        ),
        output: object({ currency: { $ref: "../_shared/money.json#/$defs/Currency" } }),
      },
    });
    expect([...result.components.keys()]).toEqual([
      "_shared.money",
      "_shared.money.Currency",
      "acme.pay.Input",
      "acme.pay.Input.Node",
      "acme.pay.Output",
    ]);
    expect(result.components.get("acme.pay.Input.Node")).toEqual(
      object({
        next: { $ref: "#/components/schemas/acme.pay.Input.Node" },
        root: { $ref: "#/components/schemas/acme.pay.Input" },
      }),
    );
    expect(result.components.get("_shared.money")).toEqual(
      object({ currency: { $ref: "#/components/schemas/_shared.money.Currency" } }),
    );
    expect(result.flows[0]?.components).toEqual([...result.components.keys()]);
  });

  it("holds only components some flow reaches, which openapi.json lists as they are", async () => {
    const result = await model({
      "specs/_shared/unused.json": object({ x: { type: "string" } }),
      "specs/_shared/tag.json": { type: "string" },
      "specs/@acme/a.json": {
        input: object({ t: { $ref: "../_shared/tag.json" } }),
        output: object({}),
      },
      "specs/@acme/b.json": { input: object({}), output: object({}) },
    });
    const reached = new Set(result.flows.flatMap((flow) => flow.components));
    expect([...result.components.keys()]).toEqual([...reached].sort());
    expect(result.components.has("_shared.unused")).toBe(false);
  });

  it("keeps flows with the same name in different orgs apart", async () => {
    const flow = { input: object({ q: { type: "string" } }), output: object({}) };
    const result = await model({
      "specs/@acme/search.json": flow,
      "specs/@globex/search.json": flow,
    });
    expect(
      result.flows.map((f) => [f.id, f.inputComponent, f.indexNamespace, f.names.factory]),
    ).toEqual([
      ["@acme/search", "acme.search.Input", "acmeSearch", "createSearchClient"],
      ["@globex/search", "globex.search.Input", "globexSearch", "createSearchClient"],
    ]);
  });

  it("leaves enum, const and default data alone even when it looks like a $ref", async () => {
    const result = await model({
      "specs/@acme/data.json": {
        input: object({ x: { const: { $ref: "#/nowhere" }, default: { $ref: "#/nowhere" } } }),
        output: object({}),
      },
    });
    expect(result.components.get("acme.data.Input")).toEqual(
      object({ x: { const: { $ref: "#/nowhere" }, default: { $ref: "#/nowhere" } } }),
    );
  });

  it("moves discriminator mappings along with the schemas they name", async () => {
    const result = await model({
      "specs/@acme/pick.json": {
        input: object(
          {
            target: {
              oneOf: [{ $ref: "#/$defs/A" }],
              discriminator: { propertyName: "kind", mapping: { a: "#/$defs/A" } },
            },
          },
          { $defs: { A: object({ kind: { const: "a" } }) } },
        ),
        output: object({}),
      },
    });
    const input = result.components.get("acme.pick.Input") as {
      properties: { target: { discriminator: unknown } };
    };
    expect(input.properties.target.discriminator).toEqual({
      propertyName: "kind",
      mapping: { a: "#/components/schemas/acme.pick.Input.A" },
    });
  });
});
