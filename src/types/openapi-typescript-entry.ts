import { createRequire } from "node:module";
import type * as typescript from "typescript";

const require = createRequire(import.meta.url);

// openapi-typescript and TypeScript through their CommonJS entries (each package ships one). An
// ESM import of TypeScript, a large CommonJS file, makes Node first scan it for module syntax and
// then for its export names, which about doubles what loading it costs on every thread that
// renders types (bench/NOTES.md). Both entries are the packages' own, with the same exports.

/** openapi-typescript's transform and printer. */
export const openapiTypescript = require("openapi-typescript") as typeof import("openapi-typescript");

/** The TypeScript compiler API that openapi-typescript's AST nodes belong to. */
export const ts = require("typescript") as typeof typescript;
