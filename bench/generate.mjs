#!/usr/bin/env node
// flowgen generate in a build pipeline, against openapi-typescript on the same flows, in one run.
//
// The flows come from ../shared/bench-anchors/mkspec.mjs (one call writes the per-flow specs and
// the same flows as one OpenAPI document). Each rep runs, one after another so that noise falls on
// all of them alike:
//   openapi-typescript  its CLI, types only, on the OpenAPI document (the anchor)
//   cold                flowgen generate into a fresh output folder, --no-cache (no render cache,
//                       no cached compiled code)
//   fresh --check       generate --check in a fresh checkout: specs and committed output copied to
//                       a new folder (no render cache, new mtimes), on a fresh machine (no cached
//                       compiled code: freshMachine); proven by rendering, so a cold render
//   trusted --check     the same with --trust-manifest: answered from the committed manifest
//   one edit            generate in a fresh checkout (fresh machine) after editing one spec's
//                       description (renders all)
//   trusted edit        the same with --trust-manifest: files the manifest shows current are kept
//   warm edit           one spec edited where generate ran before (its render cache warm): the run
//                       a developer makes after saving a spec
//   watch cycle         one spec edited while `generate --watch` runs there: from the write to the
//                       watcher's line saying the output is written (its debounce included)
//   unchanged rerun     generate again where it just ran (render cache and output current)
// and, on the same flows with one example each (bench/add-examples.mjs), as the README asks users
// to write them:
//   openapi-typescript  on flowgen's own openapi.json for those flows, examples included (the anchor)
//   cold, examples      flowgen generate of those flows, no render cache
// It prints, per case, the median wall time and peak RSS (GNU time: the largest process; worker
// threads count inside it) and the ratio to its anchor's median in the same run, next to the
// targets. Writes bench/out/generate.json.
//
//   node bench/generate.mjs [--flows 1000] [--reps 3]

import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { spawn, spawnSync, execFileSync } from "node:child_process";
import { cpus } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { addExamples } from "./add-examples.mjs";
import { median } from "./stats.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "bench/out/generate");
const MKSPEC = path.join(
  process.env.BENCH_ANCHORS ?? path.resolve(ROOT, "../shared/bench-anchors"),
  "mkspec.mjs",
);
const BIN = path.join(ROOT, "bin/flowgen.js");
const OPENAPI_TS = path.join(ROOT, "node_modules/openapi-typescript/bin/cli.js");
const TIME = "/usr/bin/time";
const EDITED = "@org0/flow-1.json";

/**
 * Targets, as ratios to openapi-typescript's wall time (and peak memory for cold). A fresh checkout
 * has no render cache this machine wrote, and the committed manifest is no evidence, so its
 * --check and first generate render everything: cold's target. Trusting the manifest keeps the
 * earlier targets.
 */
const TARGETS = {
  cold: 1.0,
  coldExamples: 1.0,
  check: 1.0,
  checkTrusted: 0.25,
  edit: 1.0,
  editTrusted: 0.5,
  warmEdit: 0.25,
  watchCycle: 0.25,
};

const args = parseArgs(process.argv.slice(2));
if (!existsSync(MKSPEC))
  fail(`needs ${MKSPEC} (the shared bench-anchors folder beside this repository)`);
if (!existsSync(TIME))
  fail(`needs GNU time at ${TIME} for peak memory (Debian: apt-get install time)`);
if (!existsSync(path.join(ROOT, "dist/cli.js")))
  fail("run `npm run build` first (bin/flowgen.js needs dist/)");

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const specs = path.join(OUT, "specs");
const document = path.join(OUT, "openapi.json");
execFileSync(
  process.execPath,
  [MKSPEC, "--flows", String(args.flows), "--flows-dir", specs, "--openapi", document],
  { stdio: "ignore" },
);
console.log(
  `flowgen generate vs openapi-typescript: ${args.flows} flows, ${cpus().length} cores, ${cpus()[0]?.model ?? "unknown cpu"}, node ${process.version}, median of ${args.reps} reps after 1 warm-up`,
);

// The committed state a fresh checkout starts from: specs and the output generate gives them.
const committed = path.join(OUT, "committed");
cpSync(specs, path.join(committed, "specs"), { recursive: true });
run([BIN, "generate", "--specs", "specs", "--out", "generated", "--no-cache"], committed);
const warmDir = path.join(OUT, "warm");
cpSync(committed, warmDir, { recursive: true });
run([BIN, "generate", "--specs", "specs", "--out", "generated"], warmDir); // fills the render cache
let warmEdits = 0;

// The same flows with one example each, and flowgen's OpenAPI document for them (the anchor's input).
const examples = path.join(OUT, "examples");
cpSync(specs, path.join(examples, "specs"), { recursive: true });
await addExamples(path.join(examples, "specs"));
run([BIN, "generate", "--specs", "specs", "--out", "generated", "--no-cache"], examples);

const cases = {
  anchor: () => run([OPENAPI_TS, document, "-o", path.join(OUT, "openapi-typescript.d.ts")], OUT),
  cold: () => {
    rmSync(path.join(OUT, "cold"), { recursive: true, force: true });
    return run(
      [BIN, "generate", "--specs", specs, "--out", path.join(OUT, "cold"), "--no-cache"],
      OUT,
    );
  },
  check: () =>
    run(
      [BIN, "generate", "--specs", "specs", "--out", "generated", "--check"],
      freshCheckout(),
      freshMachine(),
    ),
  checkTrusted: () =>
    run(
      [BIN, "generate", "--specs", "specs", "--out", "generated", "--check", "--trust-manifest"],
      freshCheckout(),
      freshMachine(),
    ),
  edit: () =>
    run(
      [BIN, "generate", "--specs", "specs", "--out", "generated"],
      editedCheckout(),
      freshMachine(),
    ),
  editTrusted: () =>
    run(
      [BIN, "generate", "--specs", "specs", "--out", "generated", "--trust-manifest"],
      editedCheckout(),
      freshMachine(),
    ),
  warmEdit: () => {
    editSpec(warmDir, `Edited ${++warmEdits}.`);
    return run([BIN, "generate", "--specs", "specs", "--out", "generated"], warmDir);
  },
  rerun: () => run([BIN, "generate", "--specs", "specs", "--out", "generated"], warmDir),
  anchorExamples: () =>
    run(
      [
        OPENAPI_TS,
        path.join(examples, "generated/openapi.json"),
        "-o",
        path.join(OUT, "openapi-typescript-examples.d.ts"),
      ],
      OUT,
    ),
  coldExamples: () => {
    rmSync(path.join(examples, "cold"), { recursive: true, force: true });
    return run([BIN, "generate", "--specs", "specs", "--out", "cold", "--no-cache"], examples);
  },
};

const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let rep = 0; rep <= args.reps; rep++) {
  for (const [name, measure] of Object.entries(cases)) {
    const sample = measure();
    if (rep > 0) samples[name].push(sample); // rep 0 warms the file system cache
  }
}

samples.watchCycle = await measureWatchCycles(args.reps);

const summary = Object.fromEntries(
  Object.entries(samples).map(([name, list]) => [
    name,
    {
      seconds: median(list.map((s) => s.seconds)),
      mb: median(list.map((s) => s.mb)),
      perRep: list,
    },
  ]),
);
const anchor = summary.anchor;
const rows = [
  ["openapi-typescript (anchor)", anchor, "", ""],
  [
    "cold generate",
    summary.cold,
    `≤ ${TARGETS.cold}x`,
    `${(summary.cold.mb / anchor.mb).toFixed(2)}x (≤ 1.2x)`,
  ],
  ["fresh-checkout --check", summary.check, `≤ ${TARGETS.check}x`, ""],
  [
    "fresh-checkout --check --trust-manifest",
    summary.checkTrusted,
    `≤ ${TARGETS.checkTrusted}x`,
    "",
  ],
  ["one edit, fresh checkout", summary.edit, `≤ ${TARGETS.edit}x`, ""],
  [
    "one edit, fresh checkout, --trust-manifest",
    summary.editTrusted,
    `≤ ${TARGETS.editTrusted}x`,
    "",
  ],
  ["one edit, warm render cache", summary.warmEdit, `≤ ${TARGETS.warmEdit}x`, ""],
  ["one --watch cycle (one edit)", summary.watchCycle, `≤ ${TARGETS.watchCycle}x`, ""],
  ["unchanged rerun", summary.rerun, "< 1 s", ""],
  [
    "openapi-typescript, flows with an example (anchor)",
    summary.anchorExamples,
    "",
    "",
    "examples",
  ],
  [
    "cold generate, flows with an example",
    summary.coldExamples,
    `≤ ${TARGETS.coldExamples}x`,
    `${(summary.coldExamples.mb / summary.anchorExamples.mb).toFixed(2)}x`,
    "examples",
  ],
];
console.log(
  "\n| case | wall s | ratio to openapi-typescript | per-rep ratios | target | peak MB | memory ratio |",
);
console.log("|---|---:|---:|---|---|---:|---|");
for (const [label, row, target, memory, flows] of rows) {
  const base = flows === "examples" ? summary.anchorExamples : anchor;
  const perRep = row.perRep
    .map((s, i) => (s.seconds / base.perRep[i].seconds).toFixed(2))
    .join(", ");
  const ratio = row === base ? "1.00x" : `${(row.seconds / base.seconds).toFixed(2)}x`;
  console.log(
    `| ${label} | ${row.seconds.toFixed(2)} | ${ratio} | ${perRep} | ${target} | ${row.mb} | ${memory} |`,
  );
}
writeFileSync(
  path.join(ROOT, "bench/out/generate.json"),
  `${JSON.stringify({ node: process.version, cores: cpus().length, flows: args.flows, reps: args.reps, summary }, null, 2)}\n`,
);

/**
 * `generate --watch` in the warm project, and `reps` edits after one to warm up: the seconds from
 * each write to the watcher's line for that run. Peak memory is not measured (0).
 */
async function measureWatchCycles(reps) {
  const child = spawn(
    process.execPath,
    [BIN, "generate", "--specs", "specs", "--out", "generated", "--watch"],
    { cwd: warmDir, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  let heard = () => undefined;
  child.stdout.on("data", (chunk) => {
    output += chunk.toString();
    heard();
  });
  const lineCount = () => output.split("\n").filter((line) => / → generated: /.test(line)).length;
  const waitForLines = (count) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`watch: no run line after 120 s:\n${output}`)),
        120_000,
      );
      heard = () => {
        if (lineCount() < count) return;
        clearTimeout(timer);
        resolve();
      };
      heard();
    });
  try {
    await waitForLines(1); // the first run, at start
    const list = [];
    for (let rep = 0; rep <= reps; rep++) {
      const before = lineCount();
      const started = performance.now();
      editSpec(warmDir, `Watched ${++warmEdits}.`);
      await waitForLines(before + 1);
      if (rep > 0) list.push({ seconds: (performance.now() - started) / 1000, mb: 0 });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return list;
  } finally {
    child.kill("SIGINT");
  }
}

/** A fresh checkout with one spec's description edited. */
function editedCheckout() {
  const dir = freshCheckout();
  editSpec(dir, "Edited.");
  return dir;
}

/** Sets the description of one spec in the project at `dir` (each text a new edit). */
function editSpec(dir, text) {
  const file = path.join(dir, "specs", EDITED);
  const spec = JSON.parse(readFileSync(file, "utf8"));
  spec.description = text;
  writeFileSync(file, `${JSON.stringify(spec, null, 2)}\n`);
}

/** A new folder holding the committed specs and output, as `git clone` would leave them: no cache, new mtimes. */
function freshCheckout() {
  const dir = path.join(OUT, "checkout");
  rmSync(dir, { recursive: true, force: true });
  cpSync(committed, dir, { recursive: true });
  return dir;
}

/**
 * The environment of a machine flowgen never ran on, as a fresh CI runner is: an empty cache folder
 * (`XDG_CACHE_HOME`), so no machine secret and no cached compiled code (src/cache/code-cache.ts).
 */
function freshMachine() {
  const dir = path.join(OUT, "machine");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  return { ...process.env, XDG_CACHE_HOME: dir };
}

/** Runs one command; returns wall seconds and peak RSS in MB. */
function run(command, cwd, env = process.env) {
  const started = performance.now();
  const result = spawnSync(TIME, ["-f", "%M", process.execPath, ...command], {
    cwd,
    env,
    encoding: "utf8",
    timeout: 600_000,
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0)
    fail(`${command.join(" ")} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  return { seconds, mb: Math.round(Number(result.stderr.trim().split("\n").at(-1)) / 1024) };
}

function parseArgs(argv) {
  const options = { flows: 1000, reps: 3 };
  for (let i = 0; i < argv.length; i += 2) {
    const value = Number(argv[i + 1]);
    if (argv[i] === "--flows" && Number.isInteger(value) && value > 0) options.flows = value;
    else if (argv[i] === "--reps" && Number.isInteger(value) && value > 0) options.reps = value;
    else
      fail(
        `unknown or bad argument ${argv[i]}; usage: node bench/generate.mjs [--flows 1000] [--reps 3]`,
      );
  }
  return options;
}

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}
