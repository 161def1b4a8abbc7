import type { RenderCache } from "../cache/render-cache.js";
import { hashContent } from "../manifest/output-manifest.js";
import type { RunKeys } from "../render/run-keys.js";

/**
 * What this machine's render cache knows of an `openapi.json` text: the flows' input hashes it was
 * rendered from. A flow whose inputs are the same now has the same contract in that text as in the
 * new one (its operation and schemas follow from its spec, the shared files it reaches and the
 * settings, all in its hash), so the contract diff need not compare it. Only the cache, which this
 * machine authenticates, says so: a committed manifest never does.
 */
export interface ContractProvenance {
  /**
   * Records that `content` was rendered from `inputs` (input hash by spec path). `sha256`: the
   * content's hash when known already (the manifest needed it), so it is not computed again.
   */
  record(content: string, inputs: Readonly<Record<string, string>>, sha256?: string): void;
  /** The spec paths whose inputs are the same now as when `content` was rendered; empty when unknown. */
  unchangedSince(content: string, inputs: Readonly<Record<string, string>>): Set<string>;
}

/**
 * Provenance kept in `cache`, under keys of this build (`keys.fileKey`).
 *
 * @example
 * contractProvenance(cache, keys).record(openapiText, flows.inputs);
 */
export function contractProvenance(cache: RenderCache, keys: RunKeys): ContractProvenance {
  const keyOf = (content: string, sha256 = hashContent(content)) =>
    keys.fileKey(`contract of ${sha256}`);
  return {
    record: (content, inputs, sha256) => cache.set(keyOf(content, sha256), JSON.stringify(inputs)),
    unchangedSince(content, inputs) {
      const recorded = readInputs(cache.get(keyOf(content)));
      return new Set(
        Object.keys(inputs).filter(
          (relPath) => Object.hasOwn(recorded, relPath) && recorded[relPath] === inputs[relPath],
        ),
      );
    },
  };
}

function readInputs(entry: string | undefined): Readonly<Record<string, unknown>> {
  if (entry === undefined) return {};
  try {
    const value: unknown = JSON.parse(entry);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
