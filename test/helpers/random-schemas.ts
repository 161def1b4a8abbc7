import { seededRandom } from "./seeded-random.js";

/**
 * Deterministic random OpenAPI documents for comparing printers with prettier: schemas of every
 * kind openapi-typescript renders (objects, maps, arrays, tuples, unions, intersections, enums,
 * constants, nullable types, references), nested a few levels, with awkward property names and
 * descriptions (quotes, escapes, Unicode, numbers, blank lines, trailing spaces, comment markers).
 *
 * @example
 * for (const document of randomDocuments(50, 3)) check(document);
 */
export function randomDocuments(count: number, seed: number): Record<string, unknown>[] {
  const { next: random, pick } = seededRandom(seed);
  const names = [
    "id",
    "a",
    "class",
    "200",
    "1.5",
    "-1",
    "with space",
    "x-y",
    "über",
    "日本",
    "it's",
    'q"uote',
    "back\\slash",
    "$dollar",
    "_under",
    "aRatherLongPropertyNameThatPushesLinesPastTheirWidth",
    "0",
    "007",
    "1e3",
    "new",
    "a\nb",
    "tab\there",
    "emoji😀",
  ];
  const descriptions = [
    "plain",
    "two\nlines",
    "ends with two spaces  \nnext",
    "has */ inside",
    "has /* inside",
    "unicode 文字 émoji 😀",
    "x".repeat(150),
    "  leading spaces",
    "line\n\nblank line between",
    "* starts with star",
    "@tag like",
    "back\\slash `code`",
    "trailing space ",
    "\ttab",
  ];
  const schema = (depth: number): Record<string, unknown> => {
    const result: Record<string, unknown> = {};
    const leaves = ["string", "number", "integer", "boolean", "null", "enum", "const"];
    const kind =
      depth > 3
        ? pick(leaves)
        : pick([
            ...leaves,
            "object",
            "object",
            "array",
            "array",
            "oneOf",
            "anyOf",
            "allOf",
            "nullable",
            "tuple",
            "map",
            "ref",
            "empty",
          ]);
    if (random() < 0.3) result.description = pick(descriptions);
    if (random() < 0.1) result.deprecated = true;
    if (random() < 0.1) result.title = pick(descriptions);
    switch (kind) {
      case "enum":
        result.enum = Array.from({ length: 1 + Math.floor(random() * 12) }, () =>
          pick<unknown>([
            pick(names),
            Math.floor(random() * 1000) - 500,
            Math.round(random() * 1000) / 8,
            true,
            null,
            `a-rather-long-enum-value-${Math.floor(random() * 1e6)}`,
          ]),
        );
        break;
      case "const":
        result.const = pick<unknown>([pick(names), 42, -3.25, false]);
        break;
      case "object": {
        const properties: Record<string, unknown> = {};
        for (let i = Math.floor(random() * 6); i > 0; i--)
          properties[pick(names) + (random() < 0.3 ? String(i) : "")] = schema(depth + 1);
        Object.assign(result, {
          type: "object",
          properties,
          required: Object.keys(properties).filter(() => random() < 0.5),
        });
        const additional = random();
        if (additional < 0.2) result.additionalProperties = false;
        else if (additional < 0.3) result.additionalProperties = schema(depth + 1);
        else if (additional < 0.4) result.additionalProperties = true;
        break;
      }
      case "array":
        Object.assign(result, { type: "array", items: schema(depth + 1) });
        break;
      case "tuple":
        Object.assign(result, {
          type: "array",
          prefixItems: [schema(depth + 1), schema(depth + 1)],
          items: random() < 0.5 ? schema(depth + 1) : false,
        });
        break;
      case "oneOf":
      case "anyOf":
      case "allOf":
        result[kind] = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
          schema(depth + 1),
        );
        break;
      case "nullable":
        result.type = [pick(["string", "integer", "number", "boolean"]), "null"];
        break;
      case "map":
        Object.assign(result, { type: "object", additionalProperties: schema(depth + 1) });
        break;
      case "ref":
        result.$ref = `#/components/schemas/${pick(["Shared", "Other.Name", "with space"])}`;
        break;
      case "empty":
        break;
      default:
        result.type = kind;
        if (kind === "string" && random() < 0.3)
          result.format = pick(["date-time", "binary", "uuid", "byte"]);
    }
    if (random() < 0.1) result.examples = [pick<unknown>(["ex", 1, { a: [1, 2, { b: "c" }] }])];
    return result;
  };
  return Array.from({ length: count }, () => {
    const response = {
      description: pick(descriptions),
      content: { "application/json": { schema: schema(1) } },
    };
    const operation = {
      operationId: "o.f",
      requestBody: {
        content: { "application/json": { schema: { $ref: "#/components/schemas/Input" } } },
      },
      responses: { "200": response },
    };
    const schemas = {
      Input: schema(0),
      Shared: schema(2),
      "Other.Name": schema(2),
      "with space": schema(3),
    };
    return {
      openapi: "3.1.0",
      info: { title: "random", version: "1" },
      paths: { "/v1/@o/f": { post: operation } },
      components: { schemas },
    };
  });
}
