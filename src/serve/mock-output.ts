import { createHash } from "node:crypto";
import { generate, type GenerateOptions } from "json-schema-faker";
import { isPlainObject } from "../json-pointer.js";

/** What the mocker needs to know about one flow. */
export interface MockSource {
  /** "@acme/qa" */
  readonly id: string;
  /** The flow's output as a standalone 2020-12 document: `flowSchemaDocument(model, flow, "output")`. */
  readonly outputSchema: Record<string, unknown>;
  readonly examples: readonly { readonly input: unknown; readonly output: unknown }[];
}

export interface Mocker {
  /** The output for `input`: the output of the first example whose input deep-equals it, else data generated from the output schema. Always valid against the output schema. */
  mock(flow: MockSource, input: unknown): Promise<unknown>;
}

/** No valid output could be made for a flow: neither generated data nor an example passed the output check. */
export class MockUnavailableError extends Error {
  override readonly name = "MockUnavailableError";
}

/** Generated values tried per call before falling back to an example. */
const ATTEMPTS = 20;

/**
 * A `$ref` cycle is cut at `maxDepth`: an array there becomes `[]` (valid), but a `$ref` there
 * becomes `null` (usually invalid), and which one the cut lands on depends on the depth. Attempts
 * cycle through neighbouring depths so that one of them cuts at an array. 9–11 leave room for
 * deeply nested non-recursive schemas and keep recursive ones to a few levels.
 */
const MAX_DEPTHS = [9, 10, 11] as const;

/**
 * Options of every call, passed per call so nothing global in json-schema-faker changes:
 * - `maxDefaultItems: 3`: arrays without `maxItems` get 0–3 items, so trees stay small;
 * - `optionalsProbability: 0.5`: about half the optional properties, so both shapes show up;
 * - `minDateTime`/`maxDateTime` stay unset: when set, `date-time` values are built from the local
 *   time zone, and the default upper bound is the current time; without them faker draws dates
 *   from the seeded random alone.
 */
const FAKER_OPTIONS = {
  maxDefaultItems: 3,
  optionalsProbability: 0.5,
} as const satisfies GenerateOptions;

/**
 * Makes mock outputs for flows without a handler. The example whose input matches wins; otherwise
 * json-schema-faker generates data, seeded from `seed`, the flow id and the input, so the same
 * call gives the same answer in every process and different inputs may get different answers.
 * Every value is checked with `isValidOutput` before it is returned.
 *
 * @example
 * const mocker = createMocker({ seed: 1, isValidOutput: (id, value) => checks.get(id)?.output(value).length === 0 });
 * await mocker.mock({ id: flow.id, outputSchema: flowSchemaDocument(model, flow, "output"), examples: flow.examples }, { question: "?" });
 */
export function createMocker(options: {
  readonly seed: number;
  readonly isValidOutput: (flowId: string, value: unknown) => boolean;
}): Mocker {
  // The server passes the model's own objects on every call: work each out once.
  const fakerSchemas = new WeakMap<MockSource["outputSchema"], FakerSchema>();
  const fakerSchemaOf = (flow: MockSource): FakerSchema => {
    let found = fakerSchemas.get(flow.outputSchema);
    if (found === undefined) {
      found = standInForProto(flow.outputSchema);
      fakerSchemas.set(flow.outputSchema, found);
    }
    return found;
  };
  const exampleKeys = new WeakMap<MockSource["examples"], readonly string[]>();
  const keysOf = (examples: MockSource["examples"]): readonly string[] => {
    let keys = exampleKeys.get(examples);
    if (keys === undefined) {
      keys = examples.map((example) => canonicalJson(example.input));
      exampleKeys.set(examples, keys);
    }
    return keys;
  };

  return {
    async mock(flow, input) {
      const inputKey = canonicalJson(input);
      const keys = keysOf(flow.examples);
      const matching = flow.examples.find(
        (example, i) => keys[i] === inputKey && options.isValidOutput(flow.id, example.output),
      );
      if (matching) return structuredClone(matching.output);
      return generateOutput(flow, fakerSchemaOf(flow), inputKey, options);
    },
  };
}

async function generateOutput(
  flow: MockSource,
  faker: FakerSchema,
  inputKey: string,
  options: {
    readonly seed: number;
    readonly isValidOutput: (flowId: string, value: unknown) => boolean;
  },
): Promise<unknown> {
  let fakerError: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let value: unknown;
    try {
      value = faker.restore(
        await generate(
          faker.schema,
          fakerOptions(attempt, callSeed(options.seed, flow.id, inputKey, attempt)),
        ),
      );
    } catch (error) {
      // Some schemas make faker throw (e.g. a required property that `properties` omits): try the next attempt, then say why.
      fakerError = error;
      continue;
    }
    if (options.isValidOutput(flow.id, value)) return value;
  }
  const fallback = flow.examples.find((example) => options.isValidOutput(flow.id, example.output));
  if (fallback) return structuredClone(fallback.output);
  const cause = fakerError instanceof Error ? ` (json-schema-faker: ${fakerError.message})` : "";
  const examples =
    flow.examples.length === 0
      ? "the spec has no example to fall back on"
      : "no example's output is valid either";
  throw new MockUnavailableError(
    `cannot mock ${flow.id}: none of ${ATTEMPTS} values generated from its output schema is valid${cause}, and ${examples}; ` +
      `add an example ({ input, output }) to the spec of ${flow.id}, or write a handler for it (${flow.id}.ts in the handlers folder)`,
  );
}

/** The output schema as json-schema-faker gets it, and how to turn what it makes back. */
interface FakerSchema {
  readonly schema: Record<string, unknown>;
  readonly restore: (value: unknown) => unknown;
}

const PROTO = "__proto__";

/**
 * json-schema-faker builds objects by assignment, and `value.__proto__ = x` makes no property: a
 * required `__proto__` would never be made, and no mock would pass the output check. Faker gets
 * the schema with that name (as a key, or a string such as a `required` entry) replaced by a
 * stand-in found nowhere in it, and what faker made gets the name back as an own property.
 */
function standInForProto(schema: Record<string, unknown>): FakerSchema {
  const text = JSON.stringify(schema);
  if (!text.includes(`"${PROTO}"`)) return { schema, restore: (value) => value };
  let standIn = "__flowgen_proto__";
  while (text.includes(standIn)) standIn += "_";
  return {
    schema: renameKeysAndStrings(schema, PROTO, standIn) as Record<string, unknown>,
    restore: (value) => renameKeysAndStrings(value, standIn, PROTO),
  };
}

/** A copy of a JSON value with every object key and string equal to `from` replaced by `to`, as own properties. */
function renameKeysAndStrings(value: unknown, from: string, to: string): unknown {
  if (typeof value === "string") return value === from ? to : value;
  if (Array.isArray(value)) return value.map((item) => renameKeysAndStrings(item, from, to));
  if (!isPlainObject(value)) return value;
  // fromEntries defines own properties: a "__proto__" key stays plain data.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key === from ? to : key,
      renameKeysAndStrings(item, from, to),
    ]),
  );
}

/**
 * Schema `examples` and `default` values make mocks look real, but the spec checks do not
 * validate them: the second half of the attempts generates without them.
 */
function fakerOptions(attempt: number, seed: number): GenerateOptions {
  const annotations = attempt < ATTEMPTS / 2;
  return {
    ...FAKER_OPTIONS,
    seed,
    maxDepth: MAX_DEPTHS[attempt % MAX_DEPTHS.length] ?? MAX_DEPTHS[0],
    useExamplesValue: annotations,
    useDefaultValue: annotations,
  };
}

/** A 32-bit seed (faker's PRNG keeps 32 bits) from a hash, so it is the same on every platform and run. */
function callSeed(seed: number, flowId: string, inputKey: string, attempt: number): number {
  return createHash("sha256")
    .update(JSON.stringify([seed, flowId, inputKey, attempt]))
    .digest()
    .readUInt32BE(0);
}

/** JSON text with object keys sorted by code unit, so equal JSON values give equal text whatever their key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}
