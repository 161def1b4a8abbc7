// How many flows of a seeded sample of public-API-shaped operations flowgen refuses with its
// default rules, and for what: `npx tsx scripts/measure-import-sample.ts [--flows 1200] [--seed 1]`.
// The sample is test/helpers/public-api-sample.ts; test/import-sample.test.ts keeps a smaller run.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadSpecs } from "../src/spec/load-specs.js";
import { publicApiSample } from "../test/helpers/public-api-sample.js";
import { writeFiles } from "../test/helpers/temp-dir.js";

const { values } = parseArgs({
  options: { flows: { type: "string", default: "1200" }, seed: { type: "string", default: "1" } },
});
const flows = Number(values.flows);
const dir = await mkdtemp(path.join(tmpdir(), "flowgen-sample-"));
try {
  await writeFiles(dir, publicApiSample(flows, Number(values.seed)));
  const result = await loadSpecs("specs", dir);
  const issues = result.ok ? [] : result.issues;
  const refused = new Map<string, Set<string>>();
  for (const issue of issues)
    refused.set(issue.file, (refused.get(issue.file) ?? new Set()).add(issue.code));
  const byCode = new Map<string, number>();
  for (const codes of refused.values())
    for (const code of codes) byCode.set(code, (byCode.get(code) ?? 0) + 1);
  const warned = new Map<string, number>();
  for (const warning of result.warnings)
    warned.set(warning.code, (warned.get(warning.code) ?? 0) + 1);
  console.log(
    `${flows} flows, ${refused.size} refused (${((100 * refused.size) / flows).toFixed(1)}%)`,
  );
  for (const [code, count] of [...byCode].sort())
    console.log(`  refused for ${code}: ${count} flows`);
  for (const [code, count] of [...warned].sort()) console.log(`  warning ${code}: ${count}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
