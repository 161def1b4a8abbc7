import { createHash } from "node:crypto";
import { generate, type GenerateOptions } from "json-schema-faker";

/** Values drawn per generated input before giving up on it: a draw that breaks the schema (faker does not honour every keyword) is drawn again. */
const ATTEMPTS = 10;

/**
 * Per call, so nothing global in json-schema-faker changes: small arrays, about half the optional
 * properties, and no date bounds (with bounds, dates come from the local time zone and the clock).
 */
const FAKER_OPTIONS = {
  maxDefaultItems: 3,
  optionalsProbability: 0.5,
  maxDepth: 8,
  useExamplesValue: false,
  useDefaultValue: false,
} as const satisfies GenerateOptions;

/**
 * `count` inputs made from a flow's input schema, each valid against it. The n-th input of a
 * flow depends only on the seed, the flow id and n, so `--seed` replays a run's inputs on any
 * machine. An input no draw could make valid is left out, with the reason.
 *
 * @example
 * const { inputs } = await generateInputs(flowSchemaDocument(model, flow, "input"), isValid, { seed: 7, flowId: "@acme/qa", count: 3 });
 */
export async function generateInputs(
  schema: Record<string, unknown>,
  isValid: (value: unknown) => boolean,
  options: { readonly seed: number; readonly flowId: string; readonly count: number },
): Promise<{ inputs: { readonly index: number; readonly input: unknown }[]; failed: number[] }> {
  const inputs: { index: number; input: unknown }[] = [];
  const failed: number[] = [];
  for (let index = 1; index <= options.count; index++) {
    const input = await drawValid(schema, isValid, options.seed, options.flowId, index);
    if (input === NONE) failed.push(index);
    else inputs.push({ index, input });
  }
  return { inputs, failed };
}

const NONE = Symbol("none");

async function drawValid(
  schema: Record<string, unknown>,
  isValid: (value: unknown) => boolean,
  seed: number,
  flowId: string,
  index: number,
): Promise<unknown> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      const value = await generate(schema, {
        ...FAKER_OPTIONS,
        seed: drawSeed(seed, flowId, index, attempt),
      });
      if (isValid(value)) return value;
    } catch {
      // Some schemas make faker throw (a required property that `properties` omits): draw again.
    }
  }
  return NONE;
}

/** A 32-bit seed (faker's PRNG keeps 32 bits) from a hash, the same on every platform. */
function drawSeed(seed: number, flowId: string, index: number, attempt: number): number {
  return createHash("sha256")
    .update(JSON.stringify([seed, flowId, index, attempt]))
    .digest()
    .readUInt32BE(0);
}
