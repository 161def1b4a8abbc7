import type { ValidateFunction } from "ajv";
import { ERROR_BODY, ERROR_SCHEMAS } from "../compile/platform-components.js";
import type { FlowModel, ProjectModel } from "../model/build-model.js";
import { flowSchemaDocument } from "../model/flow-schema-document.js";
import { createAjv } from "../spec/ajv.js";
import type { Expectation } from "./check-answer.js";
import { generateInputs } from "./generated-inputs.js";
import { deriveNegativeInputs } from "./negative-inputs.js";
import type { CaseKind } from "./verify-report.js";

/** One request `flowgen verify` will send, and what its answer must be. */
export interface PlannedCase {
  readonly flowId: string;
  readonly name: string;
  readonly kind: CaseKind;
  readonly url: string;
  readonly withKey: boolean;
  readonly input: unknown;
  readonly expects: string;
  readonly expectation: Expectation;
}

export interface PlanOptions {
  /** Inputs per flow made from its input schema. */
  readonly generate: number;
  readonly seed: number;
  /** Also send inputs that break the input schema. */
  readonly negative: boolean;
}

export interface FlowPlan {
  readonly cases: readonly PlannedCase[];
  /** Generated inputs no draw could make valid against the input schema (their numbers). */
  readonly ungenerated: readonly number[];
}

/** Validators for one run: one Ajv (per-run state), verbose so reports can say what the schema says. */
export interface PlanValidators {
  compile(flow: FlowModel, which: "input" | "output"): ValidateFunction;
  readonly errorBody: ValidateFunction;
}

/**
 * @example
 * const validators = createPlanValidators(model);
 */
export function createPlanValidators(model: ProjectModel): PlanValidators {
  // The model's schemas passed the spec checks, the meta-schema included; the error body's is flowgen's own.
  const ajv = createAjv({ verbose: true, validateSchema: false });
  const errorBody = ajv.compile(
    JSON.parse(
      JSON.stringify({ $ref: `#/$defs/${ERROR_BODY}`, $defs: ERROR_SCHEMAS }).replaceAll(
        '"#/components/schemas/',
        '"#/$defs/',
      ),
    ) as Record<string, unknown>,
  );
  return {
    compile: (flow, which) => ajv.compile(flowSchemaDocument(model, flow, which)),
    errorBody,
  };
}

const EXPECTS = {
  output: "2xx, JSON, valid against the output schema",
  "invalid-input": "400 (or 422) with the error body",
  unauthorized: "401 with the error body",
} as const;

/**
 * The cases of one flow, in a fixed order: every spec example's input, then `generate` inputs
 * made from the input schema, then (with `negative`) inputs that break it, then one call without
 * a key.
 *
 * @example
 * const plan = await planFlowCases(model, flow, "https://api.example.com", validators, { generate: 3, seed: 7, negative: true });
 */
export async function planFlowCases(
  model: ProjectModel,
  flow: FlowModel,
  baseUrl: string,
  validators: PlanValidators,
  options: PlanOptions,
): Promise<FlowPlan> {
  const url = `${baseUrl}${flow.httpPath}`;
  const inputCheck = validators.compile(flow, "input");
  const isValid = (value: unknown) => inputCheck(value);
  const output: Expectation = { kind: "output", validate: validators.compile(flow, "output") };
  const make = (
    kind: CaseKind,
    name: string,
    input: unknown,
    expectation: Expectation,
  ): PlannedCase => ({
    flowId: flow.id,
    name,
    kind,
    url,
    withKey: kind !== "no-key",
    input,
    expects: EXPECTS[expectation.kind],
    expectation,
  });
  const cases: PlannedCase[] = flow.examples.map((example, i) =>
    make(
      "example",
      example.name === undefined ? `example ${i}` : `example ${JSON.stringify(example.name)}`,
      example.input,
      output,
    ),
  );
  const schema = flowSchemaDocument(model, flow, "input");
  const generated = await generateInputs(schema, isValid, {
    seed: options.seed,
    flowId: flow.id,
    count: options.generate,
  });
  cases.push(
    ...generated.inputs.map(({ index, input }) =>
      make("generated", `generated ${index}`, input, output),
    ),
  );
  const base = await pickBaseInput(flow, schema, isValid, generated.inputs[0]?.input, options.seed);
  if (options.negative) {
    const invalid: Expectation = { kind: "invalid-input", validate: validators.errorBody };
    cases.push(
      ...deriveNegativeInputs(schema, base, isValid).map(({ name, input }) =>
        make("negative", `negative: ${name}`, input, invalid),
      ),
    );
  }
  cases.push(
    make("no-key", "no key", base ?? {}, { kind: "unauthorized", validate: validators.errorBody }),
  );
  return { cases, ungenerated: generated.failed };
}

/** A valid input to start from: the first valid example's, else a generated one. */
async function pickBaseInput(
  flow: FlowModel,
  schema: Record<string, unknown>,
  isValid: (value: unknown) => boolean,
  generated: unknown,
  seed: number,
): Promise<unknown> {
  const example = flow.examples.find((candidate) => isValid(candidate.input));
  if (example !== undefined) return example.input;
  if (generated !== undefined) return generated;
  const made = await generateInputs(schema, isValid, { seed, flowId: `${flow.id}#base`, count: 1 });
  return made.inputs[0]?.input;
}
