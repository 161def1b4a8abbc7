#!/usr/bin/env node
// Bundle size of an app that calls flows through flowgen clients, next to raw fetch and openapi-fetch.
//
// Generates a 10-flow project (../shared/bench-anchors/mkspec.mjs --flows 10, then
// `flowgen generate`) in bench/out/bundle/, writes small consumers beside it and bundles each the
// way ../shared/bench-anchors/bundle-size.mjs does (esbuild bundle + minify, ESM, browser
// platform, es2022), then gzips the output at level 9. Every consumer sends the same typed flow-0
// body literal, so the rows differ only in client code:
//   raw fetch        a hand-written fetch() call (the floor)
//   openapi-fetch    createClient<paths>() + client.POST, types from flowgen's flow-0.types.ts
//   flowgen 1 flow   createFlow0Client(...).run(body): its module, the runtime and openapi-fetch
//   flowgen 2 flows  createFlow0Client and createFlow1Client, both run
//   raw fetch 2 flows  two fetch() calls: the consumer's own share of the second flow
// "each further flow" is flowgen 2 flows minus flowgen 1 flow: the second flow's module plus the
// consumer's second call and body. Anchors and targets: ../shared/bench-anchors/RESULTS.md
// ("Bundle size"). Needs `npm run build` first (for bin/flowgen.js); writes bench/out/bundle.json.
//
//   node bench/bundle.mjs

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "bench/out");
const DIR = path.join(OUT, "bundle");
// BENCH_ANCHORS points elsewhere when the repository is checked out away from the shared folder.
const MKSPEC = path.join(
  process.env.BENCH_ANCHORS ?? path.resolve(ROOT, "../shared/bench-anchors"),
  "mkspec.mjs",
);
const BIN = path.join(ROOT, "bin/flowgen.js");
const FLOWS = 10;
// openapi-fetch is inside this figure: generated clients call it at run time.
const TARGET_ONE_FLOW = 5 * 1024;
const TARGET_FURTHER_FLOW = 300;

if (process.argv.length > 2) fail("takes no arguments; usage: node bench/bundle.mjs");
if (!existsSync(MKSPEC))
  fail(`needs ${MKSPEC} (the shared bench-anchors folder beside this repository)`);
if (!existsSync(path.join(ROOT, "dist/cli.js")))
  fail("run `npm run build` first (bin/flowgen.js needs dist/)");

rmSync(DIR, { recursive: true, force: true });
mkdirSync(DIR, { recursive: true });
execFileSync(
  process.execPath,
  [MKSPEC, "--flows", String(FLOWS), "--flows-dir", path.join(DIR, "specs")],
  { stdio: "ignore" },
);
try {
  execFileSync(
    process.execPath,
    [BIN, "generate", "--specs", "specs", "--out", "gen", "--no-cache"],
    { cwd: DIR, encoding: "utf8", stdio: "pipe", timeout: 300_000 },
  );
} catch (error) {
  fail(
    `flowgen generate failed (exit ${error.status}):\n${error.stdout ?? ""}${error.stderr ?? ""}`,
  );
}

const bodies = [0, 1].map((i) => body(path.join(DIR, `specs/@org0/flow-${i}.json`)));
const consumers = {
  "raw fetch": `${rawCall(0, bodies[0])}
export async function run(): Promise<string> {
  return (await flow0()).answer;
}
`,
  "openapi-fetch": `import createClient from "openapi-fetch";
import type { paths } from "./gen/@org0/flow-0.types.js";

const client = createClient<paths>({ baseUrl: "http://127.0.0.1:8080", headers: { Authorization: "Bearer t0k3n" } });

export async function run(): Promise<string> {
  const { data, error } = await client.POST("/v1/@org0/flow-0", {
    body: ${bodies[0]},
  });
  if (error) throw new Error(error.message);
  return data.answer;
}
`,
  "flowgen 1 flow": `import { createFlow0Client } from "./gen/@org0/flow-0.js";

const options = { apiKey: "t0k3n", baseUrl: "http://127.0.0.1:8080" };
const flow0 = createFlow0Client(options);

export async function run(): Promise<string> {
  const output = await flow0.run(${bodies[0]});
  return output.answer;
}
`,
  "flowgen 2 flows": `import { createFlow0Client } from "./gen/@org0/flow-0.js";
import { createFlow1Client } from "./gen/@org0/flow-1.js";

const options = { apiKey: "t0k3n", baseUrl: "http://127.0.0.1:8080" };
const flow0 = createFlow0Client(options);
const flow1 = createFlow1Client(options);

export async function run(): Promise<string> {
  const output = await flow0.run(${bodies[0]});
  return output.answer;
}

export async function run1(): Promise<string> {
  const output = await flow1.run(${bodies[1]});
  return output.answer;
}
`,
  "raw fetch 2 flows": `${rawCall(0, bodies[0])}
${rawCall(1, bodies[1])}
export async function run(): Promise<string> {
  return (await flow0()).answer;
}

export async function run1(): Promise<string> {
  return (await flow1()).answer;
}
`,
};

const rows = [];
for (const [client, source] of Object.entries(consumers)) {
  const file = path.join(DIR, `${client.replaceAll(" ", "-")}.ts`);
  writeFileSync(file, source);
  const result = await esbuild.build({
    entryPoints: [file],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "error",
  });
  const code = result.outputFiles[0].contents;
  writeFileSync(file.replace(/\.ts$/, ".min.js"), code);
  const inputs = Object.keys(result.metafile.inputs).map((input) =>
    path.relative(DIR, path.resolve(input)),
  );
  rows.push({
    client,
    minBytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    inputs,
  });
}

const size = (client) => rows.find((r) => r.client === client);
const oneFlow = size("flowgen 1 flow").gzipBytes;
const furtherFlow = size("flowgen 2 flows").gzipBytes - oneFlow;
const consumerShare = size("raw fetch 2 flows").gzipBytes - size("raw fetch").gzipBytes;
const ANCHORS = { "raw fetch": 300, "openapi-fetch": 2862 };

console.log(
  `flowgen bundle bench: esbuild ${esbuild.version}, bundle + minify, ESM, browser, es2022; gzip level 9; ${FLOWS}-flow project in ${path.relative(ROOT, DIR)}\n`,
);
console.log(
  "| consumer | minified bytes | gzip bytes | input files | anchor gzip bytes (RESULTS.md) |",
);
console.log("|---|---:|---:|---:|---:|");
for (const r of rows)
  console.log(
    `| ${r.client} | ${r.minBytes} | ${r.gzipBytes} | ${r.inputs.length} | ${ANCHORS[r.client] ?? "-"} |`,
  );
console.log(
  `\none flow: ${oneFlow} B gzip (target ≤ ${TARGET_ONE_FLOW})${oneFlow > TARGET_ONE_FLOW ? " MISSED" : ""}`,
);
console.log(
  `each further flow: +${furtherFlow} B gzip (target ≤ ${TARGET_FURTHER_FLOW})${furtherFlow > TARGET_FURTHER_FLOW ? " MISSED" : ""}`,
);
console.log(
  `  of which the consumer's own second call and body: +${consumerShare} B (raw fetch 2 flows - raw fetch)`,
);
console.log(
  "  (the anchors' raw-fetch floor sends a two-field body; here every consumer sends the full flow-0 body)",
);

const file = path.join(OUT, "bundle.json");
const summary = {
  date: new Date().toISOString(),
  node: process.version,
  esbuild: esbuild.version,
  flows: FLOWS,
  targets: { oneFlowGzip: TARGET_ONE_FLOW, furtherFlowGzip: TARGET_FURTHER_FLOW },
  oneFlowGzip: oneFlow,
  furtherFlowGzip: furtherFlow,
  consumerShareGzip: consumerShare,
  rows,
};
writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
console.log(`\n${path.relative(ROOT, file)}`);

/** A fully typed input literal for one mkspec flow, with enum values read from its spec. */
function body(specFile) {
  const context = JSON.parse(readFileSync(specFile, "utf8")).input.$defs.Context.properties;
  return `{
      question: "What is the capital of France?",
      options: ["Paris", "Lyon"],
      context: { locale: ${JSON.stringify(context.locale.enum[0])}, priority: ${JSON.stringify(context.priority.enum[0])}, score: 0.5 },
      temperature: 0.2,
      note: null,
      attachments: [{ name: "a.txt", mimeType: "text/plain" }],
      target: { kind: "user", userId: "u-1" },
    }`;
}

function rawCall(i, literal) {
  return `async function flow${i}(): Promise<{ answer: string }> {
  const res = await fetch("http://127.0.0.1:8080/v1/@org0/flow-${i}", {
    method: "POST",
    headers: { Authorization: "Bearer t0k3n", "Content-Type": "application/json" },
    body: JSON.stringify(${literal}),
  });
  if (!res.ok) throw new Error("HTTP " + res.status);
  return (await res.json()) as { answer: string };
}
`;
}

function fail(message) {
  console.error(`bench/bundle: ${message}`);
  process.exit(1);
}
