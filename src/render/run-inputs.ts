import { readFile } from "node:fs/promises";
import { codeFingerprint } from "../cache/render-cache.js";
import { createFormatter, type Formatter } from "../format/format-files.js";
import { readRuntimeTemplates, type RuntimeTemplate } from "../runtime-templates.js";
import { stampRun, type RenderSettings, type RunStamp } from "./run-keys.js";

/** What every file of a run depends on besides its own inputs. */
export interface RunInputs {
  readonly runtime: readonly RuntimeTemplate[];
  readonly validation: string;
  readonly formatter: Formatter;
  readonly stamp: RunStamp;
}

const VALIDATION_TEMPLATE = new URL("../../templates/validation.ts", import.meta.url);
const PACKAGE_JSON = new URL("../../package.json", import.meta.url);

/**
 * Reads the templates, flowgen's version and code, and the output folder's prettier.
 *
 * @example
 * const inputs = await readRunInputs({ baseUrl: "https://api.example.com" }, "/repo/generated");
 */
export async function readRunInputs(settings: RenderSettings, outDir: string): Promise<RunInputs> {
  const [runtime, validation, code, version, formatter] = await Promise.all([
    readRuntimeTemplates(),
    readFile(VALIDATION_TEMPLATE, "utf8"),
    codeFingerprint(),
    readFile(PACKAGE_JSON, "utf8").then((text) =>
      String((JSON.parse(text) as { version?: unknown }).version),
    ),
    createFormatter(outDir),
  ]);
  const parts = { code, version, runtime, validation, formatter: formatter.fingerprint, settings };
  return { runtime, validation, formatter, stamp: stampRun(parts) };
}
