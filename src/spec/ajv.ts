import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { compilePattern } from "./pattern-flags.js";

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export const JSON_SCHEMA_2020_12 = "https://json-schema.org/draft/2020-12/schema";

/** The schema that spec files themselves follow; shipped so editors can validate them too. */
export const FLOW_SPEC_SCHEMA = JSON.parse(
  readFileSync(new URL("../../schema/flow-spec.schema.json", import.meta.url), "utf8"),
) as Record<string, unknown>;

/**
 * One Ajv per run: compiled schemas are per-run state, never module state. `optimize: false` skips
 * Ajv's pass over generated code, for validators that run once: the pass costs more than it saves.
 */
export function createAjv(options: { readonly optimize?: boolean } = {}): Ajv2020 {
  // strict: false and no logger: formats Ajv does not know (unix-time, …) are annotations, as in OpenAPI, not noise.
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    validateFormats: true,
    logger: false,
    // A pattern that compiles only without the u flag is used without it (pattern-flags.ts).
    code: {
      optimize: options.optimize ?? true,
      // Ajv writes `code` into standalone validators only, which flowgen does not make with Ajv.
      regExp: Object.assign((source: string, flags: string) => compilePattern(source, flags), {
        code: "compilePattern",
      }),
    },
  });
  addFormats(ajv);
  return ajv;
}
