import { createRequire } from "node:module";
import type * as typescript from "typescript";
import { requireCached } from "../cache/code-cache.js";

const requireHere = createRequire(import.meta.url);
/** `require`, with TypeScript compiled from this machine's code cache (`code-cache.ts`). */
const require = (id: string): unknown => requireCached(requireHere, id);

// openapi-typescript and TypeScript through their CommonJS modules (each package ships them). An
// ESM import of TypeScript, a large CommonJS file, makes Node first scan it for module syntax and
// then for its export names, which about doubles what loading it costs on every thread that
// renders types (bench/NOTES.md). The modules are the packages' own, with the same exports.

type OpenapiTypescript = typeof import("openapi-typescript");

/**
 * The parts of openapi-typescript flowgen calls: its transform, printer and `$ref` helpers, each
 * from the module of the package that defines it (the package's exports map allows these paths).
 * Its main entry also loads the Redocly linter that `openapiTS()` runs first, which flowgen does
 * not call: about a tenth of a second on every thread that renders types (bench/NOTES.md).
 */
export const openapiTypescript: Pick<
  OpenapiTypescript,
  "transformSchema" | "astToString" | "scanDiscriminators" | "resolveRef" | "tsUnion"
> = (() => {
  const utils = require("openapi-typescript/dist/lib/utils.cjs") as Pick<
    OpenapiTypescript,
    "scanDiscriminators" | "resolveRef"
  >;
  const nodes = require("openapi-typescript/dist/lib/ts.cjs") as Pick<
    OpenapiTypescript,
    "astToString" | "tsUnion"
  >;
  return {
    transformSchema:
      require("openapi-typescript/dist/transform/index.cjs") as OpenapiTypescript["transformSchema"],
    astToString: nodes.astToString,
    tsUnion: nodes.tsUnion,
    scanDiscriminators: utils.scanDiscriminators,
    resolveRef: utils.resolveRef,
  };
})();

/** The TypeScript compiler API that openapi-typescript's AST nodes belong to. */
export const ts = require("typescript") as typeof typescript;
