import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { serve } from "../src/index.js";
import { tempProject } from "./helpers/temp-dir.js";

const flow = (field: string) => ({
  input: { type: "object", properties: { q: { type: "string" } } },
  output: { type: "object", required: [field], properties: { [field]: { type: "string" } } },
  examples: [{ input: { q: "x" }, output: { [field]: "from the example" } }],
});

/** Waits (bounded) until `said` has a line containing `text`, and returns it. */
async function waitFor(said: string[], text: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const line = said.find((candidate) => candidate.includes(text));
    if (line !== undefined) return line;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no line with "${text}" in:\n${said.join("\n")}`);
}

async function startWatching(
  files: Record<string, unknown>,
  logged: Record<string, unknown>[] = [],
  limits: { rate?: number; burst?: number } = {},
) {
  const dir = await tempProject(files);
  const said: string[] = [];
  const server = await serve({
    cwd: dir,
    config: false,
    port: 0,
    watch: true,
    keysEnv: "k_test_key_1234567890abcdef",
    say: (line) => said.push(line),
    log: (entry) => logged.push(entry),
    ...limits,
  });
  if (!server.ok) throw new Error(JSON.stringify(server.issues));
  onTestFinished(() => server.close());
  const call = async (flowId: string) => {
    const response = await fetch(`${server.url}/v1/${flowId}`, {
      method: "POST",
      headers: {
        authorization: "Bearer k_test_key_1234567890abcdef",
        "content-type": "application/json",
      },
      body: '{"q":"x"}',
    });
    return {
      status: response.status,
      body: (await response.json()) as unknown,
      remaining: response.headers.get("ratelimit-remaining"),
    };
  };
  return { dir, said, server, call };
}

describe("serve --watch", () => {
  it("reloads a handler after a replace-style save and after later edits, loads new handler files, and mocks again when one is deleted", async () => {
    const answer = (text: string) =>
      `export default async () => ({ answer: ${JSON.stringify(text)} });\n`;
    const { dir, said, call } = await startWatching({
      "specs/@acme/qa.json": flow("answer"),
      "specs/@acme/other.json": flow("answer"),
      "handlers/@acme/qa.mjs": answer("first"),
    });
    expect(await call("@acme/qa")).toMatchObject({ status: 200, body: { answer: "first" } });
    const file = path.join(dir, "handlers/@acme/qa.mjs");
    await writeFile(`${file}.tmp`, answer("second"));
    await rename(`${file}.tmp`, file);
    await waitFor(said, "reloaded the handler of @acme/qa");
    expect(await call("@acme/qa")).toMatchObject({ status: 200, body: { answer: "second" } });
    said.length = 0;
    await writeFile(file, answer("third"));
    await waitFor(said, "reloaded the handler of @acme/qa");
    expect(await call("@acme/qa")).toMatchObject({ status: 200, body: { answer: "third" } });

    await writeFile(path.join(dir, "handlers/@acme/other.mjs"), answer("new handler"));
    await waitFor(said, "loaded the handler of @acme/other");
    expect(await call("@acme/other")).toMatchObject({
      status: 200,
      body: { answer: "new handler" },
    });
    await rm(path.join(dir, "handlers/@acme/other.mjs"));
    await waitFor(said, "the handler of @acme/other was deleted; its mock answers now");
    expect(await call("@acme/other")).toMatchObject({
      status: 200,
      body: { answer: "from the example" },
    });
  });

  it("serves edited and new specs on the same port, and keeps the previous ones while a spec is broken", async () => {
    const { dir, said, server, call } = await startWatching({
      "specs/@acme/qa.json": flow("answer"),
    });
    const port = server.port;
    expect((await call("@acme/new")).status).toBe(404);
    await writeFile(path.join(dir, "specs/@acme/new.json"), JSON.stringify(flow("result")));
    expect(await waitFor(said, "reloaded the specs")).toBe(
      "flowgen serve: reloaded the specs: 2 flows (@acme/new, @acme/qa)",
    );
    expect(await call("@acme/new")).toMatchObject({
      status: 200,
      body: { result: "from the example" },
    });
    expect(server.flows).toEqual(["@acme/new", "@acme/qa"]);

    said.length = 0;
    await writeFile(path.join(dir, "specs/@acme/new.json"), "{ broken");
    expect(await waitFor(said, "still serving")).toBe(
      "flowgen serve: 1 problem in specs; still serving the specs as they were",
    );
    expect(said[0]).toMatch(/^specs\/@acme\/new\.json:1:3: invalid JSON/);
    expect((await call("@acme/new")).status).toBe(200);
    expect(server.port).toBe(port);
  });

  it("keeps watching the specs folder after it is removed and made again", async () => {
    const { dir, said, call } = await startWatching({ "specs/@acme/qa.json": flow("answer") });
    await rm(path.join(dir, "specs"), { recursive: true });
    await waitFor(said, "still serving");
    said.length = 0;
    await mkdir(path.join(dir, "specs/@acme"), { recursive: true });
    await writeFile(path.join(dir, "specs/@acme/back.json"), JSON.stringify(flow("result")));
    expect(await waitFor(said, "reloaded the specs")).toBe(
      "flowgen serve: reloaded the specs: 1 flow (@acme/back)",
    );
    expect((await call("@acme/back")).status).toBe(200);
  });
});

describe("stopping serve", () => {
  it("ends even while a handler never answers: its connection is closed once the grace is over", async () => {
    const dir = await tempProject({
      "specs/@acme/qa.json": flow("answer"),
      "handlers/@acme/qa.mjs":
        "export default () => { globalThis.__flowgenStuck = true; return new Promise(() => {}); };\n",
    });
    const server = await serve({ cwd: dir, config: false, port: 0, keysEnv: "k_stuck_0123456789" });
    if (!server.ok) throw new Error(JSON.stringify(server.issues));
    const stuck = fetch(`${server.url}/v1/@acme/qa`, {
      method: "POST",
      headers: { authorization: "Bearer k_stuck_0123456789", "content-type": "application/json" },
      body: '{"q":"x"}',
    }).then(
      () => "answered",
      () => "closed",
    );
    const started = () => (globalThis as { __flowgenStuck?: boolean }).__flowgenStuck === true;
    for (let i = 0; i < 250 && !started(); i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started()).toBe(true);
    await server.close({ graceMs: 200 });
    expect(await stuck).toBe("closed");
  });
});

describe("TypeScript handlers in a CommonJS project", () => {
  it("load, reload, and throw with stack traces that name the handler's file", async () => {
    const handler = (text: string) =>
      [
        "function fail(): never {",
        `  throw new Error(${JSON.stringify(text)});`,
        "}",
        "export default async (): Promise<never> => fail();",
        "",
      ].join("\n");
    const logged: Record<string, unknown>[] = [];
    const { dir, said, call } = await startWatching(
      {
        "package.json": { name: "cjs-app" },
        "specs/@acme/qa.json": flow("answer"),
        "handlers/@acme/qa.ts": handler("first"),
      },
      logged,
    );
    expect((await call("@acme/qa")).status).toBe(500);
    await writeFile(path.join(dir, "handlers/@acme/qa.ts"), handler("second"));
    await waitFor(said, "reloaded the handler of @acme/qa");
    expect((await call("@acme/qa")).status).toBe(500);
    const errors = logged
      .filter((entry) => entry["level"] === "error")
      .map((entry) => String(entry["error"]));
    expect(errors).toHaveLength(2);
    // The file's own path, not a data: URL holding its compiled text. (Outside vitest, whose stack
    // handling replaces Node's, the line and column are the TypeScript source's: qa.ts:2:9.)
    expect(errors[0]).toMatch(/^Error: first\n\s+at fail \(.*handlers\/@acme\/qa\.ts:\d+:\d+\)/);
    expect(errors[1]).toMatch(/^Error: second\n/);
    expect(errors.join("")).not.toContain("data:");
  });

  it("keeps each key's rate-limit bucket across a spec reload", async () => {
    const { dir, said, call } = await startWatching({ "specs/@acme/qa.json": flow("answer") }, [], {
      rate: 0.001,
      burst: 10,
    });
    expect((await call("@acme/qa")).remaining).toBe("9");
    await writeFile(path.join(dir, "specs/@acme/new.json"), JSON.stringify(flow("result")));
    await waitFor(said, "reloaded the specs");
    expect((await call("@acme/new")).remaining).toBe("8");
  });
});
