import type { Rules } from "../issues.js";
import type { StageTimes } from "../stage-times.js";
import type { KeptWorkers } from "../workers/stage-pool.js";

/** What `renderProject` renders, from where, and how. */
export interface GenerateOptions {
  /** Folder of flow specs, relative to `cwd`. */
  readonly specs: string;
  /** Output folder, relative to `cwd`. */
  readonly out: string;
  readonly cwd: string;
  /** Default base URL baked into the clients and the OpenAPI `servers` entry. */
  readonly baseUrl?: string | undefined;
  /** Also write `<flow>.validators.ts` per flow and have the clients check input and output. */
  readonly validators?: boolean | undefined;
  /** Folder for the render cache, relative to `cwd`; undefined for none. */
  readonly cacheDir?: string | undefined;
  /** Refuse (render nothing, `breaking-change` issues) when the new contract breaks callers of a flow. */
  readonly failOnBreaking?: boolean | undefined;
  /**
   * Take the output folder's manifest at its word: files whose content hash it records as current
   * are kept without rendering, and flows it records as checked skip their own checks. The manifest
   * is committed, so whoever made the commit wrote it: only for output from people you trust.
   */
  readonly trustManifest?: boolean | undefined;
  /** Where to add the time each stage takes (`--verbose`). */
  readonly times?: StageTimes | undefined;
  /** Severities the project chose for the spec checks (the config file's `rules`). */
  readonly rules?: Rules | undefined;
  /** Also write `package.json` saying `"type": "module"` into the output folder (`needsModuleMarker`). */
  readonly moduleMarker?: boolean | undefined;
  /** Worker threads kept between runs (a watching generate's): used when a run needs threads, left open after it. */
  readonly workers?: KeptWorkers | undefined;
  /** Stops the run (Ctrl-C): rendering is abandoned, and the call rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
}
