import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

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
 * `verbose: true` keeps each failing keyword's schema value and data on its error (`flowgen verify`).
 */
export function createAjv(
  options: { readonly optimize?: boolean; readonly verbose?: boolean } = {},
): Ajv2020 {
  // strict: false and no logger: formats Ajv does not know (unix-time, …) are annotations, as in OpenAPI, not noise.
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    validateFormats: true,
    logger: false,
    verbose: options.verbose ?? false,
    code: { optimize: options.optimize ?? true },
  });
  addFormats(ajv);
  return ajv;
}
