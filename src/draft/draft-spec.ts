import type { Issue } from "../issues.js";
import { checkSpecs } from "../spec/load-specs.js";
import { createFormatCheckers, inferSchema, type InferOptions } from "./infer-schema.js";
import { readSamples, type SamplePair } from "./read-samples.js";

/**
 * A spec for `flowId` drafted from recorded calls: input and output schemas inferred from the
 * samples, and every sample kept as an example. The draft goes through flowgen's own spec checks
 * before it is returned, so what `flowgen new` writes is a spec `flowgen generate` takes.
 *
 * @example
 * const draft = draftSpec({ flowId: "@acme/qa", schema: "../../node_modules/flowgen-cli/schema/flow-spec.schema.json", relPath: "@acme/qa.json", displayPath: "specs/@acme/qa.json" }, samples, { enums: false });
 * if (draft.ok) await writeSpecFile(file, draft.text);
 */
export function draftSpec(
  target: {
    readonly flowId: string;
    readonly schema: string;
    /** Where the spec will be, relative to the specs folder and for people. */
    readonly relPath: string;
    readonly displayPath: string;
  },
  samples: readonly SamplePair[],
  options: InferOptions,
): { ok: true; text: string } | { ok: false; issues: readonly Issue[] } {
  const formats = createFormatCheckers();
  const spec = {
    $schema: target.schema,
    summary: `TODO: what ${target.flowId} does, in a few words`,
    description: `Drafted from ${samples.length} recorded call${samples.length === 1 ? "" : "s"}: review the types, required properties and formats, and describe each property.`,
    input: inferSchema(
      samples.map((sample) => sample.input),
      options,
      formats,
    ),
    output: inferSchema(
      samples.map((sample) => sample.output),
      options,
      formats,
    ),
    examples: samples.map((sample) => ({
      name: sample.name,
      input: sample.input,
      output: sample.output,
    })),
  };
  const text = `${JSON.stringify(spec, null, 2)}\n`;
  const [org = "", name = ""] = target.flowId.slice(1).split("/");
  const checked = checkSpecs({
    flows: [{ relPath: target.relPath, displayPath: target.displayPath, text, org, name }],
    shared: [],
    issues: [],
  });
  return checked.ok ? { ok: true, text } : checked;
}

/**
 * Reads the samples `flowgen new --from-sample` names and drafts the spec from them.
 *
 * @example
 * const draft = await draftFromSamples({ cwd, flowId, schema, relPath, displayPath }, { inputs: ["in.json"], outputs: ["out.json"], enums: false });
 */
export async function draftFromSamples(
  target: Parameters<typeof draftSpec>[0] & { readonly cwd: string },
  given: {
    readonly inputs: readonly string[];
    readonly outputs: readonly string[];
    readonly enums: boolean;
  },
): Promise<{ ok: true; text: string; count: number } | { ok: false; issues: readonly Issue[] }> {
  const read = await readSamples(target.cwd, given.inputs, given.outputs);
  if (!read.ok) return read;
  const drafted = draftSpec(target, read.samples, { enums: given.enums });
  return drafted.ok ? { ...drafted, count: read.samples.length } : drafted;
}
