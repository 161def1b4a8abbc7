import http from "node:http";
import { rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { serve } from "../src/index.js";
import { tempProject } from "./helpers/temp-dir.js";

const KEEP = "k_keep_0123456789abcdef";
const REVOKE = "k_revoke_0123456789abcdef";

const SPEC = {
  input: { type: "object", properties: { q: { type: "string" } } },
  output: { type: "object", required: ["answer"], properties: { answer: { type: "string" } } },
  examples: [{ input: { q: "x" }, output: { answer: "from the example" } }],
};

function keysFile(...keys: string[]): unknown {
  return { keys: keys.map((key, index) => ({ key, name: `key-${index}` })) };
}

/** What the server said, line by line, and who waits for a line. */
class Transcript {
  readonly lines: string[] = [];
  private readonly listeners = new Set<() => void>();

  say(line: string): void {
    this.lines.push(line);
    for (const listener of [...this.listeners]) listener();
  }

  /** Until a line after `from` contains `text` (the test's timeout bounds the wait). */
  waitForLine(from: number, text: string): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!this.lines.slice(from).some((line) => line.includes(text))) return;
        this.listeners.delete(check);
        resolve();
      };
      this.listeners.add(check);
      check();
    });
  }
}

/** POST /v1/@acme/qa through `agent`: the status, and whether the call reused an open connection. */
function call(
  url: string,
  key: string,
  agent: http.Agent | false,
): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${url}/v1/@acme/qa`,
      {
        method: "POST",
        agent,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      },
      (response) => {
        response.resume();
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, reused: request.reusedSocket }),
        );
      },
    );
    request.on("error", reject);
    request.end('{"q":"x"}');
  });
}

async function startWithKeysFile() {
  const dir = await tempProject({
    "specs/@acme/qa.json": SPEC,
    "keys.json": keysFile(KEEP, REVOKE),
  });
  const said = new Transcript();
  const server = await serve({
    cwd: dir,
    config: false,
    port: 0,
    watch: true,
    keysFile: "keys.json",
    say: (line) => said.say(line),
  });
  if (!server.ok) throw new Error(JSON.stringify(server.issues));
  onTestFinished(() => server.close());
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  onTestFinished(() => agent.destroy());
  return { dir, said, url: server.url, agent };
}

describe("serve --watch and the keys file", () => {
  it("applies the last of two saves made close together: a change the watcher drops is looked for again", async () => {
    const { dir, said, url } = await startWithKeysFile();
    const file = path.join(dir, "keys.json");
    const from = said.lines.length;
    const other = "k_other_0123456789abcdef";
    await writeFile(file, JSON.stringify(keysFile(KEEP, REVOKE, other)));
    await writeFile(file, JSON.stringify(keysFile(KEEP)));
    await said.waitForLine(from, "reloaded the keys: 1 key");
    expect((await call(url, REVOKE, false)).status).toBe(401);
    expect((await call(url, KEEP, false)).status).toBe(200);
  });

  it("stops a removed key at once, on a kept-alive connection and on new ones, and keeps the others", async () => {
    const { dir, said, url, agent } = await startWithKeysFile();
    expect(await call(url, REVOKE, agent)).toEqual({ status: 200, reused: false });
    expect(await call(url, KEEP, agent)).toEqual({ status: 200, reused: true });
    expect(await call(url, REVOKE, agent)).toEqual({ status: 200, reused: true });

    // Saved the way editors do: a new file renamed over the old one.
    const from = said.lines.length;
    const file = path.join(dir, "keys.json");
    await writeFile(`${file}.tmp`, JSON.stringify(keysFile(KEEP)));
    await rename(`${file}.tmp`, file);
    await said.waitForLine(from, "reloaded the keys: 1 key");

    expect(await call(url, REVOKE, agent)).toEqual({ status: 401, reused: true });
    expect(await call(url, KEEP, agent)).toEqual({ status: 200, reused: true });
    expect((await call(url, REVOKE, false)).status).toBe(401);
    expect((await call(url, KEEP, false)).status).toBe(200);
    expect(said.lines.join("\n")).not.toContain(REVOKE);
  });

  it("refuses every key while the keys file is broken or gone, and serves again once it is fixed", async () => {
    const { dir, said, url, agent } = await startWithKeysFile();
    const file = path.join(dir, "keys.json");
    expect((await call(url, KEEP, agent)).status).toBe(200);

    let from = said.lines.length;
    await writeFile(file, `{ "keys": [{ "key": "${REVOKE}" }`);
    await said.waitForLine(from, "every call gets 401 until it is fixed");
    const problems = said.lines.slice(from).filter((line) => !line.includes("every call gets 401"));
    expect(problems.length).toBeGreaterThan(0);
    for (const line of problems)
      expect(line).toMatch(/ \[invalid-keys\] flowgen-cli\/docs\/errors\.md#invalid-keys$/);
    expect(await call(url, KEEP, agent)).toEqual({ status: 401, reused: true });
    expect((await call(url, REVOKE, false)).status).toBe(401);

    from = said.lines.length;
    await writeFile(file, JSON.stringify(keysFile(KEEP)));
    await said.waitForLine(from, "reloaded the keys: 1 key");
    expect(await call(url, KEEP, agent)).toEqual({ status: 200, reused: true });

    from = said.lines.length;
    await rm(file);
    await said.waitForLine(from, "every call gets 401 until it is fixed");
    expect(await call(url, KEEP, agent)).toEqual({ status: 401, reused: true });
    expect(said.lines.join("\n")).not.toContain(REVOKE);
    expect(said.lines.join("\n")).not.toContain(KEEP);
  });
});
