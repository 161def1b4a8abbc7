import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import {
  COMPILED_VALIDATORS,
  compiledValidatorsText,
} from "../scripts/compile-spec-validators.mjs";
import { createAjv, FLOW_SPEC_SCHEMA } from "../src/spec/ajv.js";
import { SPEC_FILE_VALIDATORS } from "../src/spec/spec-file-validators.js";
import { seededRandom } from "./helpers/seeded-random.js";

// The spec checks run validators Ajv compiled ahead of time (src/spec/compiled-spec-validators.ts).
// They must be what compiling the same schemas at run time gives: the committed module is the one
// the script writes now, and on valid and broken specs both give the same answers and errors.

const ROOT = path.resolve(import.meta.dirname, "..");

describe("the spec files' compiled validators", () => {
  it("are the module the script writes from today's flow-spec schema and Ajv", async () => {
    expect(readFileSync(COMPILED_VALIDATORS, "utf8")).toBe(await compiledValidatorsText());
  });

  const ajv = createAjv();
  const flowFile = ajv.compile(FLOW_SPEC_SCHEMA);
  const specs = [...specValues("specs", FLOW), ...specValues("test/golden", FLOW)];
  const shared = [...specValues("specs", SHARED), ...specValues("test/golden", SHARED)];
  const mutated = mutations(specs, 400, 11);

  it("answer a flow file as Ajv compiling the flow-spec schema does, errors included", () => {
    let invalid = 0;
    for (const value of [...specs, ...mutated]) {
      const valid = SPEC_FILE_VALIDATORS.flowFile(value);
      expect(valid).toBe(flowFile(value));
      expect(SPEC_FILE_VALIDATORS.flowFile.errors ?? null).toEqual(flowFile.errors ?? null);
      if (!valid) invalid++;
    }
    // The comparison covered broken files, not only sound ones.
    expect(invalid).toBeGreaterThan(100);
  });

  it("answer a schema as ajv.validateSchema does, errors included", () => {
    const schemas = [
      ...shared,
      ...mutations(shared, 100, 5),
      ...[...specs, ...mutated].flatMap((value) =>
        isObject(value) ? [value.input, value.output] : [],
      ),
    ];
    let invalid = 0;
    // ajv.validateSchema throws on null and undefined, which the checks never give it.
    const given = schemas.filter((schema) => schema !== null && schema !== undefined);
    for (const schema of [...given, 5, "x", [], true, { type: "strin" }]) {
      const valid = SPEC_FILE_VALIDATORS.metaSchema(schema);
      expect(valid).toBe(ajv.validateSchema(schema));
      // ajv.errors is left from the call before when the schema is a boolean: read only on failure.
      if (valid) continue;
      expect(SPEC_FILE_VALIDATORS.metaSchema.errors).toEqual(ajv.errors);
      invalid++;
    }
    expect(invalid).toBeGreaterThan(20);
  });
});

const FLOW = /(^|\/)@[^/]+\/[^/]+\.(json|ya?ml)$/;
const SHARED = /(^|\/)_[^/]+\/[^/]+\.(json|ya?ml)$/;

/** The spec files under `folder` (JSON and YAML) whose paths match `kind`, parsed. */
function specValues(folder: string, kind: RegExp): unknown[] {
  const files = readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => kind.test(file))
    .sort();
  expect(files.length).toBeGreaterThan(0);
  return files.map((file) => {
    const text = readFileSync(path.join(ROOT, folder, file), "utf8");
    return (file.endsWith(".json") ? JSON.parse(text) : parseYaml(text)) as unknown;
  });
}

/** `count` copies of the specs, each with one value somewhere replaced or one key added. */
function mutations(specs: readonly unknown[], count: number, seed: number): unknown[] {
  const { next, pick } = seededRandom(seed);
  const replacements = [null, 1, -1.5, "x", "", [], {}, true, { type: "nope" }, { $ref: 7 }, [1]];
  const keys = ["type", "properties", "required", "items", "id", "input", "examples", "extra"];
  return Array.from({ length: count }, () => {
    const copy = structuredClone(pick(specs));
    const places = objectsIn(copy);
    const place = pick(places);
    const existing = Object.keys(place);
    const key = existing.length > 0 && next() < 0.7 ? pick(existing) : pick(keys);
    place[key] = structuredClone(pick(replacements));
    return copy;
  });
}

function objectsIn(value: unknown): Record<string, unknown>[] {
  if (Array.isArray(value)) return value.flatMap(objectsIn);
  if (!isObject(value)) return [];
  return [value, ...Object.values(value).flatMap(objectsIn)];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
