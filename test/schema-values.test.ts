import { describe, expect, it } from "vitest";
import { createAjv } from "../src/spec/ajv.js";
import { checkSchemaValues } from "../src/spec/check-schema-values.js";
import type { SpecIndex } from "../src/spec/schema-refs.js";

// A spec's enum, const, default and examples values are screened without Ajv; Ajv is made only for
// values the screen does not pass, and it decides them, with its messages.

const FLOW = "@acme/values.json";

function indexOf(input: Record<string, unknown>): SpecIndex {
  return {
    files: new Map([[FLOW, { input, output: { type: "object" } }]]),
    flowFiles: new Set([FLOW]),
    brokenFiles: new Set(),
  };
}

/** The findings, and how many Ajvs the check made. */
function check(input: Record<string, unknown>): { findings: string[]; ajvs: number } {
  let ajvs = 0;
  const makeAjv = () => {
    ajvs++;
    return createAjv({ optimize: false, validateSchema: false });
  };
  const findings = checkSchemaValues(makeAjv, [{ relPath: FLOW, root: "/input" }], indexOf(input));
  return { findings: findings.map((finding) => `${finding.pointer}: ${finding.message}`), ajvs };
}

describe("the values in schemas", () => {
  it("need no Ajv when they all pass", () => {
    const input = {
      type: "object",
      properties: {
        size: { type: "string", enum: ["s", "m"], default: "m" },
        mail: { type: "string", format: "email", default: "a@example.com", examples: ["b@c.de"] },
        n: { type: "integer", minimum: 1, const: 2 },
      },
    };
    expect(check(input)).toEqual({ findings: [], ajvs: 0 });
  });

  it("that fail are still refused, each with Ajv's message", () => {
    const input = {
      type: "object",
      properties: {
        size: { type: "string", enum: ["s", 3], default: "xl" },
        mail: { type: "string", format: "email", default: "not an email" },
        tag: { type: "string", maxLength: 3, examples: ["four"] },
      },
    };
    expect(check(input)).toEqual({
      findings: [
        "/input/properties/tag/examples/0: this examples value fails its own schema: must NOT have more than 3 characters; fix the value or the schema",
        '/input/properties/mail/default: this default value fails its own schema: must match format "email"; fix the value or the schema',
        "/input/properties/size/enum/1: this enum value fails its own schema: must be string; fix the value or the schema",
        '/input/properties/size/default: this default value fails its own schema: must be equal to one of the allowed values ("s", 3); fix the value or the schema',
      ],
      ajvs: 1,
    });
  });

  it("count decimal multiples as JSON Schema does, in every Ajv flowgen makes (checks, serve, verify)", () => {
    const validate = createAjv().compile({ multipleOf: 0.01 });
    expect([0.07, 19.99, 0.3, 1e6].map((n) => validate(n))).toEqual([true, true, true, true]);
    expect([0.075, 0.001].map((n) => validate(n))).toEqual([false, false]);
  });

  it("go to Ajv where the screen reads a keyword otherwise", () => {
    // The screen allows a float tolerance of its own in multipleOf, and knows nothing of
    // ajv-formats' formatMaximum; Ajv, the authority, reads both (0.3 is a multiple of 0.1, 0.35 is not).
    const input = {
      type: "object",
      properties: {
        step: { multipleOf: 0.1, default: 0.35, examples: [0.3] },
        day: { type: "string", format: "date", formatMaximum: "2020-01-01", default: "2030-01-01" },
      },
    };
    expect(check(input)).toEqual({
      findings: [
        "/input/properties/day/default: this default value fails its own schema: should be <= 2020-01-01; fix the value or the schema",
        "/input/properties/step/default: this default value fails its own schema: must be multiple of 0.1; fix the value or the schema",
      ],
      ajvs: 1,
    });
  });
});
