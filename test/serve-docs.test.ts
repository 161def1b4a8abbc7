import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServe, type StartedServe } from "./helpers/serve.js";
import { REPO_ROOT } from "./helpers/temp-dir.js";

const KEY = "k_docs_0123456789abcdef";

let server: StartedServe;

beforeAll(async () => {
  server = await startTestServe(KEY);
});

afterAll(async () => {
  await server.close();
});

describe("the API reference of flowgen serve", () => {
  it("serves /openapi.json without a key: the document generate writes, naming this server", async () => {
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const written = JSON.parse(
      await readFile(path.join(REPO_ROOT, "generated/openapi.json"), "utf8"),
    ) as Record<string, unknown>;
    expect(await response.json()).toEqual({
      ...written,
      servers: [{ url: "/", description: "This flowgen serve." }],
    });
  });

  it("serves the reference page at /docs/ without a key, with its script from this server", async () => {
    expect(server.docsUrl).toBe(`${server.url}/docs/`);
    const page = await fetch(`${server.url}/docs/?tab=1`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<script src="js/scalar.js">');
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    const script = await fetch(`${server.url}/docs/js/scalar.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/^application\/javascript/);
    expect((await script.text()).length).toBeGreaterThan(1_000_000);
    const moved = await fetch(`${server.url}/docs`, { redirect: "manual" });
    expect([moved.status, moved.headers.get("location")]).toEqual([301, "/docs/"]);
    await moved.body?.cancel();
  });

  it.each([
    ["POST", "/openapi.json"],
    ["DELETE", "/docs/"],
    ["GET", "/docs/other"],
    ["GET", "/openapi.json/"],
    ["GET", "/Docs/"],
  ])("needs a key for %s %s, which only describes nothing", async (method, target) => {
    const response = await fetch(`${server.url}${target}`, { method });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: "unauthorized" });
  });

  it("with docs turned off, serves neither: 401 without a key, 404 with one", async () => {
    const bare = await startTestServe(KEY, { docs: false });
    try {
      expect(bare.docsUrl).toBeUndefined();
      for (const target of ["/openapi.json", "/docs/"]) {
        expect((await fetch(`${bare.url}${target}`)).status).toBe(401);
        const keyed = await fetch(`${bare.url}${target}`, {
          headers: { authorization: `Bearer ${KEY}` },
        });
        expect(keyed.status).toBe(404);
        expect(await keyed.json()).toMatchObject({ code: "not_found" });
      }
    } finally {
      await bare.close();
    }
  });
});
