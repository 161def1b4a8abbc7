import { readRuntimeTemplates } from "../../src/runtime-templates.js";

/** How many files the client runtime adds to an output folder. */
export const RUNTIME_FILE_COUNT = (await readRuntimeTemplates()).length;

/** Files `flowgen generate` writes for `flows` flows: two per flow (three with validators), index.ts, openapi.json, the manifest, the runtime (and validation.ts). */
export function outputFileCount(
  flows: number,
  options: { readonly validators?: boolean } = {},
): number {
  return (
    flows * (options.validators ? 3 : 2) + 3 + RUNTIME_FILE_COUNT + (options.validators ? 1 : 0)
  );
}
