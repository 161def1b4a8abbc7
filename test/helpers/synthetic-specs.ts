import { seededRandom } from "./seeded-random.js";

/**
 * A deterministic project of many varied flow specs, for tests that need output at scale: long
 * names (unions and arrays that must wrap), descriptions with awkward characters, nullable values,
 * unions and intersections of references, maps, recursion, enums of many values, examples.
 *
 * @example
 * await writeFiles(dir, syntheticSpecs(120));
 */
export function syntheticSpecs(count: number, seed = 7): Record<string, unknown> {
  const { next, pick } = seededRandom(seed);
  const words = [
    "id",
    "name",
    "customerReference",
    "shippingAddressLineForInternationalDelivery",
    "x",
    "unitPrice",
    "über",
    "data-set",
    "2fa",
    "class",
  ];
  const descriptions = [
    "A plain description.",
    "Quotes \"double\" and 'single', a backslash \\ and a `code span`.",
    "Two lines:\nthe second one.",
    "Unicode: 文字, émoji 😀, arrows → ←.",
    "A long description that goes on well past the print width so that nothing about wrapping comments is assumed by the formatter at all.",
  ];
  const leaf = (): Record<string, unknown> =>
    pick<() => Record<string, unknown>>([
      () => ({ type: "string" }),
      () => ({ type: "string", format: pick(["uuid", "date-time", "uri", "email"]) }),
      () => ({ type: "integer", minimum: 0, maximum: 1000 }),
      () => ({ type: "number", default: 0.5 }),
      () => ({ type: "boolean" }),
      () => ({ type: ["string", "null"] }),
      () => ({
        enum: Array.from(
          { length: 2 + Math.floor(next() * 12) },
          (_, i) => `${pick(words)}-value-${i}`,
        ),
      }),
      () => ({ const: pick(["fixed", 42, true]) }),
      () => ({
        type: "array",
        items: {
          type: "string",
          enum: ["alpha-option", "beta-option", "gamma-option", "delta-option", "epsilon-option"],
        },
      }),
      () => ({ type: "object", additionalProperties: { type: "number" } }),
    ])();
  const files: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const org = `org${Math.floor(i / 8)}`;
    const name = i % 5 === 0 ? `a-rather-long-flow-name-for-wrapping-${i}` : `flow-${i}`;
    const defs: Record<string, unknown> = {
      VeryLongDefinitionNameThatForcesWrappingOfUnionsA: {
        type: "object",
        required: ["kind"],
        properties: { kind: { const: "a" }, value: leaf() },
      },
      VeryLongDefinitionNameThatForcesWrappingOfUnionsB: {
        type: "object",
        required: ["kind"],
        properties: { kind: { const: "b" }, other: leaf() },
      },
      Node: {
        type: "object",
        description: pick(descriptions),
        properties: {
          label: { type: "string" },
          children: { type: "array", items: { $ref: "#/$defs/Node" } },
        },
      },
    };
    const properties: Record<string, unknown> = {};
    const width = 3 + Math.floor(next() * 6);
    for (let p = 0; p < width; p++)
      properties[`${pick(words)}${p}`] = {
        ...leaf(),
        ...(next() < 0.5 ? { description: pick(descriptions) } : {}),
      };
    properties.choice = {
      oneOf: [
        { $ref: "#/$defs/VeryLongDefinitionNameThatForcesWrappingOfUnionsA" },
        { $ref: "#/$defs/VeryLongDefinitionNameThatForcesWrappingOfUnionsB" },
      ],
      discriminator: { propertyName: "kind" },
    };
    properties.choices = {
      type: "array",
      items: {
        anyOf: [
          { $ref: "#/$defs/VeryLongDefinitionNameThatForcesWrappingOfUnionsA" },
          { type: "null" },
        ],
      },
    };
    properties.merged = {
      allOf: [{ $ref: "#/$defs/Node" }, { type: "object", properties: { extra: leaf() } }],
    };
    properties.maybe = { anyOf: [{ $ref: "#/$defs/Node" }, { type: "null" }] };
    properties.tree = { $ref: "#/$defs/Node" };
    // Examples must pass their own schema: a flow with one asks for no input properties.
    const example = next() < 0.2;
    files[`specs/@${org}/${name}.json`] = {
      id: `@${org}/${name}`,
      summary: `Flow number ${i}`,
      ...(next() < 0.3 ? { description: pick(descriptions), deprecated: next() < 0.3 } : {}),
      input: {
        type: "object",
        required: example ? [] : Object.keys(properties).slice(0, 2),
        properties,
        $defs: defs,
      },
      output: {
        type: "object",
        required: ["answer"],
        properties: {
          answer: { type: "string", description: pick(descriptions) },
          score: { type: ["number", "null"] },
        },
      },
      ...(example
        ? { examples: [{ name: "basic", input: {}, output: { answer: "yes", score: null } }] }
        : {}),
    };
  }
  return files;
}
