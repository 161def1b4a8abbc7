import { readdir, readFile } from "node:fs/promises";
import { RUNTIME_DIR } from "./emit/runtime-exports.js";
import { compareText } from "./issues.js";

const RUNTIME_TEMPLATES = new URL(`../templates/${RUNTIME_DIR}/`, import.meta.url);

/** One source file of the client runtime, as flowgen ships it in `templates/runtime/`. */
export interface RuntimeTemplate {
  /** The file's name, e.g. `client.ts`; it lands at `runtime/<name>` in the output folder. */
  readonly name: string;
  readonly text: string;
}

/**
 * The client runtime's source files, in name order, without their tests: what `flowgen generate`
 * copies into the output folder, unchanged but for the banner.
 *
 * @example
 * const files = await readRuntimeTemplates(); // [{ name: "client.ts", text: "…" }, …]
 */
export async function readRuntimeTemplates(): Promise<RuntimeTemplate[]> {
  const names = (await readdir(RUNTIME_TEMPLATES))
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .sort(compareText);
  return Promise.all(
    names.map(async (name) => ({
      name,
      text: await readFile(new URL(name, RUNTIME_TEMPLATES), "utf8"),
    })),
  );
}
