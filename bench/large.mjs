#!/usr/bin/env node
// flowgen generate on big real-world-shaped schemas (bench/mklarge.mjs), against openapi-typescript
// on flowgen's own openapi.json for the same flows, at 1x, 2x and 4x the project size, in one run.
// Each flow is independent (its own types file and client), so flowgen's peak memory should follow
// the largest flow, not the sum of all flows: the curve across the sizes shows which it follows.
//
//   node bench/large.mjs [--flows 100] [--reps 1] [--scales 1,2,4]
//
// Prints, per size, the median wall time and peak RSS (GNU time: the largest process; worker
// threads count inside it) of both tools and flowgen's ratios to openapi-typescript, next to the
// targets (time ≤ 0.4x, memory ≤ 0.5x), then flowgen's floor: its peak on a few one-property flows, with
// both threads started and every package loaded. Writes bench/out/large.json.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, statSync, readdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { makeLargeSpecs } from "./mklarge.mjs";
import { median } from "./stats.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "bench/out/large");
const BIN = path.join(ROOT, "bin/flowgen.js");
const OPENAPI_TS = path.join(ROOT, "node_modules/openapi-typescript/bin/cli.js");
const TIME = "/usr/bin/time";
const TARGETS = { time: 0.4, memory: 0.5 };
/** Flows in the floor's project: their files (a types file and a module each) pass POOL_THRESHOLD. */
const FLOOR_FLOWS = 40;

const args = parseArgs(process.argv.slice(2));
if (!existsSync(TIME))
  fail(`needs GNU time at ${TIME} for peak memory (Debian: apt-get install time)`);
if (!existsSync(path.join(ROOT, "dist/cli.js")))
  fail("run `npm run build` first (bin/flowgen.js needs dist/)");

rmSync(OUT, { recursive: true, force: true });
console.log(
  `flowgen generate vs openapi-typescript on large schemas: ${args.flows} flows at 1x, ${cpus().length} cores, ${cpus()[0]?.model ?? "unknown cpu"}, node ${process.version}, median of ${args.reps} reps`,
);
console.log(
  "\n| size | flows | specs MB | openapi-typescript s | flowgen s | time ratio (≤ 0.4x) | openapi-typescript MB | flowgen MB | memory ratio (≤ 0.5x) |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
const results = [];
for (const scale of args.scales) {
  const dir = path.join(OUT, `${scale}x`);
  const flows = args.flows * scale;
  makeLargeSpecs({ flows, out: path.join(dir, "specs") });
  // flowgen's own document for these flows is the anchor's input.
  run([BIN, "generate", "--specs", "specs", "--out", "reference", "--no-cache"], dir);
  const samples = { anchor: [], flowgen: [] };
  for (let rep = 0; rep < args.reps; rep++) {
    samples.anchor.push(
      run([OPENAPI_TS, "reference/openapi.json", "-o", "openapi-typescript.d.ts"], dir),
    );
    rmSync(path.join(dir, "cold"), { recursive: true, force: true });
    samples.flowgen.push(
      run([BIN, "generate", "--specs", "specs", "--out", "cold", "--no-cache"], dir),
    );
  }
  const row = summarize(scale, flows, megabytes(path.join(dir, "specs")), samples);
  results.push(row);
  console.log(
    `| ${scale}x | ${flows} | ${row.specsMb} | ${row.anchor.seconds.toFixed(2)} | ${row.flowgen.seconds.toFixed(2)} | ${row.timeRatio.toFixed(2)}x | ${row.anchor.mb} | ${row.flowgen.mb} | ${row.memoryRatio.toFixed(2)}x |`,
  );
  rmSync(dir, { recursive: true, force: true });
}
const floor = measureFloor(results[0]);
console.log(
  `\nflowgen's floor: ${floor.mb} MB peak on ${FLOOR_FLOWS} one-property flows (two threads, every stage's packages loaded), ${floor.ratio.toFixed(2)}x openapi-typescript's peak at ${results[0]?.scale}x, where the memory target is ${TARGETS.memory}x`,
);
writeFileSync(
  path.join(ROOT, "bench/out/large.json"),
  `${JSON.stringify({ node: process.version, cores: cpus().length, targets: TARGETS, results, floor }, null, 2)}\n`,
);

/**
 * What flowgen costs before its flows do: enough one-property flows for the worker threads
 * (POOL_THRESHOLD files), so both threads load their packages (TypeScript twice: openapi-typescript's
 * and ts-morph's own copy), against the smallest size's anchor.
 */
function measureFloor(smallest) {
  const dir = path.join(OUT, "floor");
  const tiny = { type: "object", properties: { text: { type: "string" } } };
  for (let i = 0; i < FLOOR_FLOWS; i++) {
    mkdirSync(path.join(dir, "specs/@floor"), { recursive: true });
    writeFileSync(
      path.join(dir, `specs/@floor/flow-${i}.json`),
      JSON.stringify({ summary: `Flow ${i}`, input: tiny, output: tiny }),
    );
  }
  const { mb } = run([BIN, "generate", "--specs", "specs", "--out", "cold", "--no-cache"], dir);
  rmSync(dir, { recursive: true, force: true });
  return { flows: FLOOR_FLOWS, mb, ratio: mb / (smallest?.anchor.mb ?? Number.NaN) };
}

function summarize(scale, flows, specsMb, samples) {
  const pick = (list) => ({
    seconds: median(list.map((s) => s.seconds)),
    mb: median(list.map((s) => s.mb)),
    perRep: list,
  });
  const anchor = pick(samples.anchor);
  const flowgen = pick(samples.flowgen);
  return {
    scale,
    flows,
    specsMb,
    anchor,
    flowgen,
    timeRatio: flowgen.seconds / anchor.seconds,
    memoryRatio: flowgen.mb / anchor.mb,
  };
}

function megabytes(folder) {
  let bytes = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) bytes += statSync(path.join(entry.parentPath, entry.name)).size;
  return Math.round(bytes / 1e6);
}

/** Runs one command; returns wall seconds and peak RSS in MB. */
function run(command, cwd) {
  mkdirSync(cwd, { recursive: true });
  const started = performance.now();
  const result = spawnSync(TIME, ["-f", "%M", process.execPath, ...command], {
    cwd,
    encoding: "utf8",
    timeout: 900_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0)
    fail(`${command.join(" ")} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  return { seconds, mb: Math.round(Number(result.stderr.trim().split("\n").at(-1)) / 1024) };
}

function parseArgs(argv) {
  const options = { flows: 100, reps: 1, scales: [1, 2, 4] };
  for (let i = 0; i < argv.length; i += 2) {
    const [key, value] = [argv[i], argv[i + 1]];
    const number = Number(value);
    if (key === "--flows" && Number.isInteger(number) && number > 0) options.flows = number;
    else if (key === "--reps" && Number.isInteger(number) && number > 0) options.reps = number;
    else if (key === "--scales" && /^\d+(,\d+)*$/.test(value ?? ""))
      options.scales = value.split(",").map(Number);
    else
      fail(
        `unknown or bad argument ${key}; usage: node bench/large.mjs [--flows 100] [--reps 1] [--scales 1,2,4]`,
      );
  }
  return options;
}

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}
