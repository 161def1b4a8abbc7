import { execFile, spawn } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createQaClient } from "../../generated/@acme/qa.js";
import { authorsProject, freshClone, injectWithForgedManifest } from "../helpers/forged-clone.js";
import { REPO_ROOT } from "../helpers/temp-dir.js";

// flowgen as a process, for what only a process shows: its output streams, signals, exit codes.
// The same behaviours are tested in-process (serve.test.ts, output-trust.test.ts).

const run = promisify(execFile);

/** A POST with a key; the answer's status and JSON body. */
async function post(url: string, key: string | undefined, body: string) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body,
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe("flowgen generate as a process", () => {
  it("as a process, in CI: `flowgen generate --check` exits 1 on the forgery", async () => {
    const clone = await freshClone(await authorsProject());
    await injectWithForgedManifest(clone);
    const bin = path.join(REPO_ROOT, "bin/flowgen.js");
    const failed = await run(process.execPath, [bin, "generate", "--check"], { cwd: clone }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain("changed  generated/@acme/qa.ts");
  });
});

describe("flowgen serve as a process", () => {
  it("prints its URL, a dev key and a curl line, serves, and stops cleanly on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      [path.join(REPO_ROOT, "bin/flowgen.js"), "serve", "--port", "0", "--no-watch"],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, FLOWGEN_SERVE_KEYS: "" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      for (let i = 0; i < 100 && !stderr.includes("curl"); i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1];
      const key = /dev key is (fg_dev_[0-9a-f]+)/.exec(stderr)?.[1];
      expect(url, stderr).toBeDefined();
      expect(key, stderr).toBeDefined();
      expect(stderr).toContain(
        `curl -sS -X POST ${url}/v1/@acme/invoice -H "Authorization: Bearer ${key}"`,
      );
      // The printed curl line works as printed: its body is the spec example's input.
      const body = /-d '(.*)'$/m.exec(stderr)?.[1] ?? "";
      const invoice = await post(`${url}/v1/@acme/invoice`, key, body);
      expect(invoice).toMatchObject({ status: 200, body: { invoiceId: "inv_1" } });
      const qa = createQaClient({ apiKey: key ?? "", baseUrl: url ?? "" });
      expect(await qa.run({ question: "What is the capital of France?" })).toEqual({
        answer: "Paris",
      });
      // The repo's example handler, handlers/@acme/search.ts, answers its flow.
      const search = await post(
        `${url}/v1/@acme/search`,
        key,
        JSON.stringify({ query: "password" }),
      );
      expect(search).toMatchObject({
        status: 200,
        body: { hits: [{ id: "kb-1", title: "Reset your password" }] },
      });
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});
