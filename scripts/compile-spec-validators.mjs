#!/usr/bin/env node
// Writes src/spec/compiled-spec-validators.ts: the spec files' fixed checks (a flow file's shape,
// `schema/flow-spec.schema.json`, and the JSON Schema 2020-12 meta-schema every schema is checked
// against) as Ajv's standalone code: a run that checks a spec loads that module instead of loading
// Ajv and compiling both schemas, which cost more than the rest of a small run's checks
// (bench/NOTES.md).
//
// Run it (`npm run compile:validators`) after changing the flow-spec schema, Ajv or the options
// `createAjv` gives Ajv; test/spec-validators.test.ts fails while the committed file is stale.
//
//   node scripts/compile-spec-validators.mjs [--check]

import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const COMPILED_VALIDATORS = path.join(ROOT, "src/spec/compiled-spec-validators.ts");
const require = createRequire(import.meta.url);

/**
 * The module's text. The Ajv options are `createAjv`'s (src/spec/ajv.ts) for the spec checks:
 * patterns compile with flowgen's `compilePattern`, formats are ajv-formats' full ones.
 */
export async function compiledValidatorsText() {
  const { Ajv2020 } = require("ajv/dist/2020.js");
  const { _ } = require("ajv/dist/compile/codegen/index.js");
  const standaloneCode = require("ajv/dist/standalone/index.js").default;
  const addFormats = require("ajv-formats");
  const { compilePattern } = await import("../dist/spec/pattern-flags.js");
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    validateFormats: true,
    logger: false,
    verbose: false,
    ownProperties: true,
    code: {
      source: true,
      esm: true,
      formats: _`require("ajv-formats/dist/formats.js").fullFormats`,
      regExp: Object.assign((source, flags) => compilePattern(source, flags), {
        code: "compilePattern",
      }),
    },
  });
  addFormats(ajv);
  const schema = JSON.parse(readFileSync(path.join(ROOT, "schema/flow-spec.schema.json"), "utf8"));
  ajv.addSchema(schema, "flowFile");
  const code = standaloneCode(ajv, {
    flowFile: "flowFile",
    metaSchema: "https://json-schema.org/draft/2020-12/schema",
  });
  const { version } = require("ajv/package.json");
  const text = [
    `// Written by scripts/compile-spec-validators.mjs from schema/flow-spec.schema.json with Ajv ${version}:`,
    "// do not edit; run `npm run compile:validators` instead.",
    "// @ts-nocheck",
    'import { createRequire } from "node:module";',
    'import { compilePattern } from "./pattern-flags.js";',
    "const require = createRequire(import.meta.url);",
    code.replace(/^"use strict";/, ""),
  ].join("\n");
  const options = await prettier.resolveConfig(COMPILED_VALIDATORS);
  return prettier.format(text, { ...options, filepath: COMPILED_VALIDATORS });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await compiledValidatorsText();
  if (process.argv.includes("--check")) {
    const stale = readFileSync(COMPILED_VALIDATORS, "utf8") !== text;
    if (stale) console.error(`${COMPILED_VALIDATORS} is stale: run npm run compile:validators`);
    process.exitCode = stale ? 1 : 0;
  } else writeFileSync(COMPILED_VALIDATORS, text);
}
