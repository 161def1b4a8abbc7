import { createRequire } from "node:module";
import type * as tsMorphModule from "ts-morph";
import { requireCached } from "../cache/code-cache.js";

// ts-morph through require(), as the CommonJS package it is: an ESM import makes Node first scan
// its entry for module syntax and then for export names, a cost paid before every emit
// (bench/NOTES.md; the same reason as openapi-typescript-entry.ts).

/** ts-morph's API: the same module `import "ts-morph"` gives. */
export const tsMorph = requireCached(
  createRequire(import.meta.url),
  "ts-morph",
) as typeof tsMorphModule;
