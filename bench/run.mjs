#!/usr/bin/env node
// npm run bench: flowgen on synthetic projects of 10, 100 and 1,000 flows.
//
// For each N it prints the median wall time and peak memory (RSS, of the largest process) of
//   - a cold `flowgen generate` (fresh output folder, --no-cache),
//   - a second run with nothing changed (warm render cache, output already current),
//   - `tsc` on a file that calls one flow (@org0/flow-0), next to the same at N=1.
// The specs come from ../shared/bench-anchors/mkspec.mjs, the same generator the anchor figures
// in ../shared/bench-anchors/RESULTS.md were taken with.
//
//   node bench/run.mjs [--ns 10,100,1000] [--runs 3] [--only gen|tsc]

import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { cpus } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./stats.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "bench/out");
const MKSPEC = path.resolve(ROOT, "../shared/bench-anchors/mkspec.mjs");
const BIN = path.join(ROOT, "bin/flowgen.js");
const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");
const TIME = "/usr/bin/time";

const args = parseArgs(process.argv.slice(2));
if (!existsSync(MKSPEC))
  fail(`benchmark specs need ${MKSPEC} (the shared bench-anchors folder beside this repository)`);
const hasTime = existsSync(TIME);

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
console.log(
  `flowgen bench: ${cpus().length} cores, ${cpus()[0]?.model ?? "unknown cpu"}, node ${process.version}, median of ${args.runs} runs after 1 warm-up`,
);
if (!hasTime) console.log("(no /usr/bin/time: peak memory is not measured)");

const rows = [];
for (const n of args.ns) {
  const specs = makeSpecs(n);
  const row = { n };
  if (args.only !== "tsc") {
    const cold = measure(
      args.runs,
      () => rmSync(path.join(OUT, `gen-${n}`), { recursive: true, force: true }),
      [BIN, "generate", "--specs", specs, "--out", `gen-${n}`, "--no-cache"],
    );
    const cacheDir = path.join(OUT, `cache-${n}`);
    const warmArgs = [
      BIN,
      "generate",
      "--specs",
      specs,
      "--out",
      `gen-${n}`,
      "--cache-dir",
      cacheDir,
    ];
    run(warmArgs); // fills the cache
    const warm = measure(args.runs, () => undefined, warmArgs);
    Object.assign(row, { cold, warm });
  }
  if (args.only !== "gen") row.tsc = measureTsc(n, specs);
  rows.push(row);
  print(rows);
}
let baseline;
if (args.only !== "gen") {
  baseline = measureTsc(1, makeSpecs(1));
  console.log(
    `\ntsc on a file calling one flow at N=1: ${fmt(baseline.seconds)} s, ${baseline.mb ?? "-"} MB`,
  );
  for (const row of rows)
    console.log(`  N=${row.n}: ${(row.tsc.seconds / baseline.seconds).toFixed(2)}x the N=1 time`);
}
writeFileSync(
  path.join(OUT, "results.json"),
  `${JSON.stringify({ node: process.version, cores: cpus().length, runs: args.runs, rows, tscBaseline: baseline }, null, 2)}\n`,
);

function parseArgs(argv) {
  const options = { ns: [10, 100, 1000], runs: 3, only: undefined };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    if (argv[i] === "--ns" && value) options.ns = value.split(",").map(Number);
    else if (argv[i] === "--runs" && value) options.runs = Number(value);
    else if (argv[i] === "--only" && value) options.only = value;
    else
      fail(
        `unknown argument ${argv[i]}; usage: node bench/run.mjs [--ns 10,100,1000] [--runs 3] [--only gen|tsc]`,
      );
    i++;
  }
  if (options.ns.some((n) => !Number.isInteger(n) || n < 1) || !(options.runs >= 1))
    fail("--ns takes whole numbers, --runs at least 1");
  return options;
}

function makeSpecs(n) {
  const dir = path.join(OUT, `specs-${n}`);
  if (!existsSync(dir))
    execFileSync(process.execPath, [MKSPEC, "--flows", String(n), "--flows-dir", dir], {
      stdio: "ignore",
    });
  return path.relative(OUT, dir);
}

/** Runs one command in bench/out; returns wall seconds and peak RSS in MB. */
function run(command, cwd = OUT) {
  const argv = hasTime
    ? [TIME, "-f", "%e %M", process.execPath, ...command]
    : [process.execPath, ...command];
  const started = performance.now();
  const result = spawnSync(argv[0], argv.slice(1), { cwd, encoding: "utf8", timeout: 600_000 });
  const wall = (performance.now() - started) / 1000;
  if (result.status !== 0)
    fail(`${command.join(" ")} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  if (!hasTime) return { seconds: wall, mb: undefined };
  const [seconds, kb] = result.stderr.trim().split("\n").at(-1).split(" ").map(Number);
  return { seconds, mb: Math.round(kb / 1024) };
}

function measure(runs, before, command, cwd) {
  before();
  run(command, cwd); // warm-up: file system cache, compiled code cache
  const samples = [];
  for (let i = 0; i < runs; i++) {
    before();
    samples.push(run(command, cwd));
  }
  return {
    seconds: median(samples.map((s) => s.seconds)),
    mb: hasTime ? median(samples.map((s) => s.mb)) : undefined,
  };
}

function measureTsc(n, specs) {
  const gen = path.join(OUT, `gen-${n}`);
  if (!existsSync(path.join(gen, "runtime/index.ts")))
    run([BIN, "generate", "--specs", specs, "--out", `gen-${n}`, "--no-cache"]);
  const dir = path.join(OUT, `tsc-${n}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(gen, path.join(dir, "gen"), { recursive: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }\n');
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: true,
        noEmit: true,
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        lib: ["ES2022", "DOM"],
        types: [],
      },
      files: ["consumer.ts"],
    }),
  );
  const good = consumer(path.join(OUT, specs, "@org0/flow-0.json"));
  // The measured call must really be typed: the same file with a wrong enum value has to fail.
  writeFileSync(
    path.join(dir, "consumer.ts"),
    good.replace(/locale: "[^"]*"/, 'locale: "not-a-locale"'),
  );
  const wrong = spawnSync(process.execPath, [TSC, "-p", dir], {
    cwd: dir,
    encoding: "utf8",
    timeout: 600_000,
  });
  if (wrong.status === 0)
    fail(
      `tsc accepted a wrong enum value in ${dir}/consumer.ts: the one-flow consumer is not typed`,
    );
  writeFileSync(path.join(dir, "consumer.ts"), good);
  return measure(args.runs, () => undefined, [TSC, "-p", dir], dir);
}

/** A fully typed body for @org0/flow-0: a wrong enum value in it is a type error. */
function consumer(specFile) {
  const spec = JSON.parse(readFileSync(specFile, "utf8"));
  const context = spec.input.$defs.Context.properties;
  return `import { createFlow0Client, type Flow0Input } from "./gen/@org0/flow-0.js";

const input: Flow0Input = {
  question: "What is the capital of France?",
  options: ["Paris", "Lyon"],
  context: { locale: ${JSON.stringify(context.locale.enum[0])}, priority: ${JSON.stringify(context.priority.enum[0])}, score: 0.5 },
  temperature: 0.2,
  note: null,
  attachments: [{ name: "a.txt", mimeType: "text/plain" }],
  target: { kind: "user", userId: "u-1" },
};

export async function run(): Promise<string> {
  const client = createFlow0Client({ apiKey: "k", baseUrl: "http://127.0.0.1:1" });
  const output = await client.run(input);
  return output.answer;
}
`;
}

function print(done) {
  console.log(
    "\n| N | cold generate s | cold peak MB | unchanged rerun s | rerun peak MB | tsc one-flow s | tsc peak MB |",
  );
  console.log("|---:|---:|---:|---:|---:|---:|---:|");
  for (const row of done) {
    console.log(
      `| ${row.n} | ${fmt(row.cold?.seconds)} | ${row.cold?.mb ?? "-"} | ${fmt(row.warm?.seconds)} | ${row.warm?.mb ?? "-"} | ${fmt(row.tsc?.seconds)} | ${row.tsc?.mb ?? "-"} |`,
    );
  }
}

function fmt(value) {
  return value === undefined ? "-" : value.toFixed(2);
}

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}
