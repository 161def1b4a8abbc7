#!/usr/bin/env node
// Flow specs shaped like the big real-world API descriptions people import (Microsoft Graph,
// cloud provider APIs): entity hierarchies built with `allOf` several levels deep, `oneOf` unions,
// objects with hundreds of properties, enums, formats and long descriptions, all in each flow's
// own `$defs`. Seeded, so the same arguments always give the same files. Every `size`-th flow is a
// giant (several times the defs), as a few operations of a real document are.
//
//   node bench/mklarge.mjs --flows 100 --out <specs folder> [--seed 1] [--defs 12]

import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** mulberry32: a small seeded generator, so two runs give the same specs. */
function random(seed) {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "account address admin agent alert app approval asset audit backup billing calendar " +
  "certificate channel claim client cluster comment compliance connector contact contract " +
  "device directory domain drive event export feature file folder group identity incident " +
  "invoice key label license location mailbox meeting member message network notebook order " +
  "owner package partner payment permission phone plan policy principal printer project queue " +
  "record region report resource role rule schedule scope secret segment sensor service " +
  "session setting site subscription task team template tenant token user vault volume workflow"
).split(" ");
const FORMATS = ["date-time", "uri", "email", "uuid", "date", "int64", "int32", "hostname"];

function makeFlow(rand, org, index, defCount) {
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const sentence = (n) =>
    Array.from({ length: n }, () => pick(WORDS))
      .join(" ")
      .replace(/^./, (c) => c.toUpperCase()) + ".";
  const description = () => Array.from({ length: int(1, 6) }, () => sentence(int(8, 30))).join(" ");
  const name = (i) => `${pick(WORDS)[0].toUpperCase()}${pick(WORDS).slice(1)}${pick(WORDS)}${i}`;

  const names = Array.from({ length: defCount }, (_, i) => name(i));
  const defs = {};
  const property = (i, own) => {
    const roll = rand();
    if (roll < 0.12 && i > 0) return { $ref: `#/$defs/${names[int(0, i - 1)]}` };
    if (roll < 0.2 && i > 0)
      return {
        type: "array",
        items: { $ref: `#/$defs/${names[int(0, i - 1)]}` },
        description: description(),
      };
    if (roll < 0.3)
      return {
        type: "string",
        enum: Array.from(new Set(Array.from({ length: int(2, 12) }, () => pick(WORDS)))),
        description: description(),
      };
    if (roll < 0.45) {
      const format = pick(FORMATS);
      const type = format.startsWith("int") ? "integer" : "string";
      return { type: [type, "null"], format, description: own ? description() : undefined };
    }
    if (roll < 0.55) return { type: "boolean", description: description() };
    if (roll < 0.65) return { type: "number", minimum: 0, maximum: int(10, 100000) };
    return { type: "string", maxLength: int(16, 4000), description: description() };
  };
  for (let i = 0; i < defCount; i++) {
    const properties = {};
    const count = rand() < 0.03 ? int(150, 400) : int(6, 30);
    for (let p = 0; p < count; p++) properties[`${pick(WORDS)}${p}`] = property(i, p % 3 === 0);
    const own = { type: "object", description: description(), properties };
    const roll = rand();
    if (i >= 3 && roll < 0.35) {
      // An entity built on a chain of bases, as entity → directoryObject → user.
      defs[names[i]] = {
        allOf: [{ $ref: `#/$defs/${names[int(Math.max(0, i - 6), i - 1)]}` }, own],
      };
    } else if (i >= 4 && roll < 0.5) {
      const variants = Array.from({ length: int(2, 5) }, () => ({
        $ref: `#/$defs/${names[int(0, i - 1)]}`,
      }));
      defs[names[i]] = { description: description(), oneOf: variants };
    } else defs[names[i]] = own;
  }
  const top = (label, from) => ({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    description: `${label} of @${org}/op-${index}. ${description()}`,
    required: ["item"],
    properties: {
      item: { $ref: `#/$defs/${names[from]}` },
      related: { type: "array", items: { $ref: `#/$defs/${names[int(0, defCount - 1)]}` } },
      select: { type: "array", items: { type: "string", enum: Object.keys(defs).slice(0, 20) } },
    },
    $defs: defs,
  });
  return {
    summary: sentence(int(3, 8)),
    description: description(),
    input: top("Input", int(0, defCount - 1)),
    output: top("Output", defCount - 1),
  };
}

function parseArgs(argv) {
  const options = { flows: 100, out: undefined, seed: 1, defs: 12 };
  for (let i = 0; i < argv.length; i += 2) {
    const [key, value] = [argv[i], argv[i + 1]];
    if (key === "--out" && value) options.out = value;
    else if (["--flows", "--seed", "--defs"].includes(key) && Number.isInteger(Number(value)))
      options[key.slice(2)] = Number(value);
    else
      throw new Error(
        `unknown or bad argument ${key}; usage: node bench/mklarge.mjs --flows N --out DIR [--seed S] [--defs D]`,
      );
  }
  if (options.out === undefined) throw new Error("give --out DIR");
  return options;
}

/** Writes `flows` large flow specs under `out` (ten flows an org); returns the files written. */
export function makeLargeSpecs({ flows, out, seed = 1, defs = 12 }) {
  const files = [];
  for (let i = 0; i < flows; i++) {
    // Each flow from its own seed: the first N flows of a 2N project are the N-flow project's.
    const rand = random(seed * 100003 + i);
    const org = `big${Math.floor(i / 10)}`;
    const spec = makeFlow(rand, org, i, i % 20 === 7 ? defs * 5 : defs);
    const file = path.join(out, `@${org}`, `op-${i}.json`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(spec, null, 2)}\n`);
    files.push(file);
  }
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const options = parseArgs(process.argv.slice(2));
  console.log(`${makeLargeSpecs(options).length} flows written to ${options.out}`);
}
