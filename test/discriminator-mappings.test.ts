import { describe, expect, it } from "vitest";
import type { ComponentSchema } from "../src/model/bundle-schemas.js";
import { mapDiscriminators } from "../src/model/discriminator-mappings.js";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const kind = (value: unknown) => ({ properties: { kind: { const: value } } });
const components = (schemas: Record<string, unknown>) =>
  new Map(Object.entries(schemas) as [string, ComponentSchema][]);

/** The mapping of `name`'s discriminator (at `path` in it) once the components are mapped. */
function mappingOf(
  schemas: Record<string, unknown>,
  name: string,
  sources: Record<string, string> = {},
): unknown {
  const before = structuredClone(schemas);
  const mapped = mapDiscriminators(components(schemas), new Map(Object.entries(sources)));
  // The bundle's own schemas are the specs' objects: they are never changed.
  expect(schemas).toEqual(before);
  return (mapped.get(name) as { discriminator: { mapping?: unknown } }).discriminator.mapping;
}

describe("discriminator mappings made explicit in the document", () => {
  it("maps each branch left out to the value it states, keeping the mapping's own entries", () => {
    const mapping = mappingOf(
      {
        Pet: {
          oneOf: [ref("Cat"), ref("Dog"), ref("Bird")],
          discriminator: { propertyName: "kind", mapping: { parrot: "#/components/schemas/Bird" } },
        },
        Cat: { type: "object", ...kind("cat") },
        Dog: { type: "object", properties: { kind: { enum: ["dog"] } } },
        Bird: { type: "object", ...kind("bird") },
      },
      "Pet",
    );
    expect(mapping).toEqual({
      parrot: "#/components/schemas/Bird",
      cat: "#/components/schemas/Cat",
      dog: "#/components/schemas/Dog",
    });
  });

  it("maps a branch that states no value to its name in the spec, which bundling changed", () => {
    const mapping = mappingOf(
      {
        "acme.pets.Input.Pet": {
          anyOf: [ref("acme.pets.Input.Fox"), ref("_shared.owl")],
          discriminator: { propertyName: "kind" },
        },
        "acme.pets.Input.Fox": { type: "object", properties: { kind: { type: "string" } } },
        "_shared.owl": { type: "object" },
      },
      "acme.pets.Input.Pet",
      {
        "acme.pets.Input.Fox": "@acme/pets.json#/input/$defs/Fox",
        "_shared.owl": "_shared/owl.yaml#",
      },
    );
    expect(mapping).toEqual({
      Fox: "#/components/schemas/acme.pets.Input.Fox",
      owl: "#/components/schemas/_shared.owl",
    });
  });

  it("reads a value through allOf and $ref, and none where two parts disagree or a cycle says nothing", () => {
    const mapping = mappingOf(
      {
        Pet: {
          oneOf: [ref("Cat"), ref("Dog"), ref("Odd"), ref("Loop")],
          discriminator: { propertyName: "kind" },
        },
        Base: { type: "object", properties: { kind: { type: "string" } } },
        Cat: { allOf: [ref("Base"), kind("cat")] },
        Dog: { ...ref("Base"), ...kind("dog") },
        Odd: { allOf: [kind("odd"), { allOf: [kind("even")] }] },
        Loop: { allOf: [ref("Loop")] },
      },
      "Pet",
    );
    expect(mapping).toEqual({ cat: "#/components/schemas/Cat", dog: "#/components/schemas/Dog" });
  });

  it("maps the components that extend a discriminated base, in the base", () => {
    const mapping = mappingOf(
      {
        Animal: { type: "object", discriminator: { propertyName: "kind" } },
        Cow: { allOf: [ref("Animal"), kind("cow")] },
        Hen: { allOf: [ref("Animal")] },
        Other: { allOf: [ref("Cow")] },
      },
      "Animal",
      { Hen: "@acme/farm.json#/input/$defs/Hen" },
    );
    expect(mapping).toEqual({
      cow: "#/components/schemas/Cow",
      Hen: "#/components/schemas/Hen",
    });
  });

  it("maps a discriminator inside a component, and leaves a value two branches claim to the first", () => {
    const schemas = {
      Holder: {
        type: "object",
        properties: {
          pet: { oneOf: [ref("A"), ref("B")], discriminator: { propertyName: "kind" } },
        },
      },
      A: kind("same"),
      B: kind("same"),
    };
    const mapped = mapDiscriminators(components(schemas), new Map());
    expect(mapped.get("Holder")).toMatchObject({
      properties: { pet: { discriminator: { mapping: { same: "#/components/schemas/A" } } } },
    });
    expect(mapped.get("A")).toBe(schemas.A);
  });

  it("reads what the parts allow together, leaves out a schema allowing several, and gives stated values first claim", () => {
    const mapping = mappingOf(
      {
        Pet: {
          oneOf: [ref("Cat"), ref("Fox"), ref("Vixen"), ref("Mixed")],
          discriminator: { propertyName: "kind" },
        },
        Cat: { properties: { kind: { enum: ["cat", "kitten"] } } },
        Fox: { properties: { kind: { type: "string" } } },
        Vixen: kind("Fox"),
        Mixed: { allOf: [kind("a"), { properties: { kind: { enum: ["a", "b"] } } }] },
      },
      "Pet",
      {
        Cat: "@acme/pets.json#/input/$defs/Cat",
        Fox: "@acme/pets.json#/input/$defs/Fox",
        Vixen: "@acme/pets.json#/input/$defs/Vixen",
        Mixed: "@acme/pets.json#/input/$defs/Mixed",
      },
    );
    expect(mapping).toEqual({
      Fox: "#/components/schemas/Vixen",
      a: "#/components/schemas/Mixed",
    });
  });

  it("points an entry written with a schema's name in the spec at its component", () => {
    const mapping = mappingOf(
      {
        "acme.pets.Input.Pet": {
          oneOf: [ref("acme.pets.Input.Cat"), ref("acme.pets.Input.Dog")],
          discriminator: { propertyName: "kind", mapping: { kitty: "Cat" } },
        },
        "acme.pets.Input.Cat": { type: "object" },
        "acme.pets.Input.Dog": { type: "object" },
      },
      "acme.pets.Input.Pet",
      {
        "acme.pets.Input.Cat": "@acme/pets.json#/input/$defs/Cat",
        "acme.pets.Input.Dog": "@acme/pets.json#/input/$defs/Dog",
      },
    );
    expect(mapping).toEqual({
      kitty: "#/components/schemas/acme.pets.Input.Cat",
      Dog: "#/components/schemas/acme.pets.Input.Dog",
    });
  });

  it("does not take a schema that narrows a base listing its schemas in a oneOf for one of them", () => {
    const mapping = mappingOf(
      {
        Pet: { oneOf: [ref("Cat")], discriminator: { propertyName: "kind" } },
        Cat: kind("cat"),
        PetWithOwner: { allOf: [ref("Pet"), { required: ["owner"] }] },
      },
      "Pet",
    );
    expect(mapping).toEqual({ cat: "#/components/schemas/Cat" });
  });

  it("maps an extending schema to its spec name where the base's enum allows it", () => {
    const mapping = mappingOf(
      {
        Pet: {
          type: "object",
          properties: { petType: { enum: ["Cat", "Dog"] } },
          discriminator: { propertyName: "petType" },
        },
        Cat: { allOf: [ref("Pet"), { properties: { lives: { type: "integer" } } }] },
        Owl: { allOf: [ref("Pet")] },
      },
      "Pet",
      { Cat: "@acme/pets.json#/input/$defs/Cat", Owl: "@acme/pets.json#/input/$defs/Owl" },
    );
    expect(mapping).toEqual({ Cat: "#/components/schemas/Cat" });
  });
});
