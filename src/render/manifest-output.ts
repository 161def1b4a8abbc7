import path from "node:path";
import {
  hashContent,
  MANIFEST_PATH,
  readManifest,
  type OutputManifest,
} from "../manifest/output-manifest.js";
import type { OutputFile } from "../output-file.js";
import type { Planned } from "../produce-files.js";
import { readTextFiles } from "../read-text-files.js";
import { readSpecFiles } from "../spec/read-spec-files.js";
import { createStageTimes } from "../stage-times.js";
import { listOutputFiles } from "../write/write-output.js";
import type { GenerateOptions } from "./generate-options.js";
import { readRunInputs } from "./run-inputs.js";
import { createRunKeys } from "./run-keys.js";

/**
 * The output folder's files, when its manifest shows them current without rendering anything: the
 * same flowgen version, templates, prettier options and generate options, the same spec and shared
 * files, and every file's content hash as recorded (so a hand edit is caught). Undefined when any
 * of that differs (render to find out what), or when the specs cannot be read cleanly.
 *
 * This takes the manifest's word, and the manifest is whatever the last commit says: a forged one
 * (a changed file with its new hash recorded) passes. Only `--trust-manifest` asks for it.
 *
 * @example
 * const current = await readCurrentOutput({ specs: "specs", out: "generated", cwd: process.cwd() });
 */
export async function readCurrentOutput(
  options: GenerateOptions,
): Promise<{ files: OutputFile[]; flowCount: number } | undefined> {
  const outDir = path.resolve(options.cwd, options.out);
  const manifest = await readManifest(outDir);
  if (manifest === undefined) return undefined;
  const times = options.times ?? createStageTimes();
  const [sources, inputs] = await Promise.all([
    times.measure("spec read", () => readSpecFiles(options.specs, options.cwd)),
    readRunInputs(options, outDir),
  ]);
  if (sources.issues.length > 0 || manifest.fingerprint !== inputs.stamp.fingerprint)
    return undefined;
  const flows = createRunKeys(inputs.stamp, sources, options.rules).hashFlows();
  if (JSON.stringify(flows.inputs) !== JSON.stringify(manifest.flows)) return undefined;
  return times.measure("manifest", () => compareWithManifest(outDir, manifest));
}

async function compareWithManifest(
  outDir: string,
  manifest: OutputManifest,
): Promise<{ files: OutputFile[]; flowCount: number } | undefined> {
  const present = await listOutputFiles(outDir);
  const recorded = Object.keys(manifest.files);
  if (present.length !== recorded.length + 1 || !present.includes(MANIFEST_PATH)) return undefined;
  const contents = readTextFiles(present.map((file) => path.join(outDir, file)));
  const files = present.map((file, i) => ({ path: file, content: contents[i] ?? "" }));
  for (const file of files) {
    if (
      file.path !== MANIFEST_PATH &&
      manifest.files[file.path]?.output !== hashContent(file.content)
    )
      return undefined;
  }
  return { files, flowCount: Object.keys(manifest.flows).length };
}

/**
 * Trusted: the planned files whose inputs match the manifest's record, and whose content in the
 * output folder still matches its hash, by path. None without a manifest.
 *
 * @example
 * const kept = await readKeptFiles("/repo/generated", manifest, plan);
 */
export async function readKeptFiles(
  outDir: string,
  manifest: OutputManifest | undefined,
  plan: readonly Planned[],
): Promise<Map<string, string>> {
  if (manifest === undefined) return new Map();
  // Only files the folder really holds: nothing behind a link in it is read.
  const present = new Set(await listOutputFiles(outDir));
  const candidates = plan.filter(
    (file) => present.has(file.path) && manifest.files[file.path]?.inputs === file.inputs,
  );
  const contents = readTextFiles(
    candidates.map((file) => path.join(outDir, ...file.path.split("/"))),
    () => undefined,
  );
  const kept = new Map<string, string>();
  candidates.forEach((file, i) => {
    const content = contents[i];
    if (content !== undefined && hashContent(content) === manifest.files[file.path]?.output)
      kept.set(file.path, content);
  });
  return kept;
}
