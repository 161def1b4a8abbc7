import path from "node:path";
import { startServe, type ServeOptions } from "../../src/serve/serve.js";
import { REPO_ROOT } from "./temp-dir.js";

export type StartedServe = Extract<Awaited<ReturnType<typeof startServe>>, { ok: true }>;

/**
 * `flowgen serve` on 127.0.0.1 and a free port, from the repo's specs, with mocks for every flow,
 * the given keys (FLOWGEN_SERVE_KEYS format), limits out of the way and seed 1; `overrides` win.
 * Throws with the issues when it cannot start.
 */
export async function startTestServe(
  keysEnv: string,
  overrides: Partial<ServeOptions> = {},
): Promise<StartedServe> {
  const server = await startServe({
    specs: path.join(REPO_ROOT, "specs"),
    cwd: REPO_ROOT,
    port: 0,
    host: "127.0.0.1",
    handlers: "no-handlers-here",
    watch: false,
    keysEnv,
    rate: 1000,
    burst: 1000,
    bodyLimit: 64 * 1024,
    maxDepth: 64,
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    seed: 1,
    ...overrides,
  });
  if (!server.ok) throw new Error(JSON.stringify(server.issues));
  return server;
}
