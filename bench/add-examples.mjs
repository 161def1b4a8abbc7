#!/usr/bin/env node
// Gives every flow spec under a folder one example, as the README asks users to write them: an
// input and an output drawn by json-schema-faker from the flow's own schemas (seeded by the flow's
// file name, so the same folder always gets the same examples), kept only when Ajv finds it valid.
//
//   node bench/add-examples.mjs <specs folder>

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { generate } from "json-schema-faker";

const OPTIONS = {
  maxDefaultItems: 2,
  optionalsProbability: 0.5,
  maxDepth: 6,
  maxLength: 60,
  useExamplesValue: false,
  useDefaultValue: false,
};

/** Adds one example to each `*.json` flow spec below `folder`; returns how many it changed. */
export async function addExamples(folder) {
  let changed = 0;
  for (const file of listJson(folder)) {
    const spec = JSON.parse(readFileSync(file, "utf8"));
    if (spec.input === undefined || spec.output === undefined) continue;
    const name = path.relative(folder, file);
    spec.examples = [
      {
        name: "drawn",
        input: await draw(spec.input, `${name}#input`),
        output: await draw(spec.output, `${name}#output`),
      },
    ];
    writeFileSync(file, `${JSON.stringify(spec, null, 2)}\n`);
    changed++;
  }
  return changed;
}

async function draw(schema, label) {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats.default(ajv);
  const { $schema: _ignored, ...rest } = schema;
  const isValid = ajv.compile(rest);
  for (let attempt = 0; attempt < 20; attempt++) {
    const seed = createHash("sha256").update(`${label}#${attempt}`).digest().readUInt32BE(0);
    const value = await generate(rest, { ...OPTIONS, seed });
    if (isValid(value)) return value;
  }
  throw new Error(`no valid value drawn for ${label}`);
}

function listJson(folder) {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".json"))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const folder = process.argv[2];
  if (!folder) {
    console.error("usage: node bench/add-examples.mjs <specs folder>");
    process.exit(2);
  }
  console.log(`${await addExamples(path.resolve(folder))} specs given an example`);
}
