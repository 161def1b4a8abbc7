import path from "node:path";
import { onTestFinished } from "vitest";
import { serve } from "../../src/api/serve.js";
import { startServe, type ServeOptions } from "../../src/serve/serve.js";
import { REPO_ROOT, tempProject } from "./temp-dir.js";

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

/** A flow server started by `serveFlow`: its lines, and a call with the key that answers status and body. */
export interface ServedFlow {
  readonly said: readonly string[];
  post(body: unknown): Promise<{ status: number; body: unknown }>;
}

/**
 * `flowgen serve` through the API, on a free loopback port, for a project holding one flow spec
 * (`specs/@acme/<name>.json`, the given input schema, any output); closed when the test finishes.
 *
 * @example
 * const flow = await serveFlow("greedy", { type: "object" }, KEY);
 * expect((await flow.post({ name: "a" })).status).toBe(200);
 */
export async function serveFlow(
  name: string,
  input: Record<string, unknown>,
  key: string,
  options: { readonly bodyLimit?: number } = {},
): Promise<ServedFlow> {
  const dir = await tempProject({
    [`specs/@acme/${name}.json`]: { input, output: { type: "object" } },
  });
  const said: string[] = [];
  const server = await serve({
    cwd: dir,
    config: false,
    port: 0,
    watch: false,
    keysEnv: key,
    say: (line) => said.push(line),
    ...options,
  });
  if (!server.ok) throw new Error(JSON.stringify(server.issues));
  onTestFinished(() => server.close());
  return {
    said,
    async post(body) {
      const response = await fetch(`${server.url}/v1/@acme/${name}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    },
  };
}
