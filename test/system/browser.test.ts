// Generated clients and flowgen serve in a real browser: headless Chromium (Debian's package,
// installed by .ci/run) driven by playwright-core. Pages come from another loopback origin than
// the server's, as a frontend's dev server does. Without Chromium this file fails, never skips.
import { mkdir } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { build } from "esbuild";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServe, type StartedServe } from "../helpers/serve.js";
import { REPO_ROOT } from "../helpers/temp-dir.js";

const KEY = "k_browser_0123456789abcdef";
/** Where screenshots go for people to look at; the folder is ignored by git. */
const ARTIFACTS = path.join(REPO_ROOT, "test-artifacts");
const CHROMIUM = "/usr/bin/chromium";
/**
 * The flags this machine needs (no sandbox as root, no GPU) and no traffic of Chromium's own;
 * `--headless` and a fresh `--user-data-dir` come from playwright.
 */
const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let serve: StartedServe;
let pages: Server;
let pageOrigin: string;
let browser: Browser;
let context: BrowserContext;
/** Requests the browser tried to send off this machine: each a failure of "nothing from a CDN". */
const leaving: string[] = [];
/** Tokens the page's backend handed out: the first is stale, as an expired one would be. */
let tokensIssued = 0;
/** What flowgen serve logged: which calls it answered, and with which key's name. */
const accessLog: Record<string, unknown>[] = [];

/** Bundles a page script for the browser, as a frontend's bundler would. */
async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [path.join(REPO_ROOT, "test/browser", entry)],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    write: false,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  return result.outputFiles[0]!.text;
}

/** The page's own origin: its HTML and scripts, a token endpoint, and a proxy that adds the key. */
function pageServer(scripts: Record<string, string>): Server {
  const send = (res: ServerResponse, type: string, body: string, status = 200) => {
    res.writeHead(status, { "content-type": type });
    res.end(body);
  };
  const proxy = async (req: IncomingMessage, res: ServerResponse, body: string) => {
    const answer = await fetch(`${serve.url}${req.url ?? ""}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` },
      body,
    });
    send(res, "application/json", await answer.text(), answer.status);
  };
  return createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const url = req.url ?? "";
      if (url === "/") return send(res, "text/html", "<!doctype html><title>flows</title><body>");
      const script = scripts[url];
      if (script !== undefined) return send(res, "text/javascript", script);
      if (url === "/token")
        return send(
          res,
          "application/json",
          JSON.stringify({ token: tokensIssued++ === 0 ? "k_expired_token_000" : KEY }),
        );
      if (url.startsWith("/v1/")) return void proxy(req, res, body);
      send(res, "text/plain", "not found", 404);
    });
  });
}

beforeAll(async () => {
  serve = await startTestServe(KEY, { log: (entry) => void accessLog.push(entry) });
  const [flows, query] = await Promise.all([bundle("flows-page.ts"), bundle("query-page.ts")]);
  pages = pageServer({ "/flows.js": flows, "/query.js": query });
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  // "localhost" rather than 127.0.0.1: another origin than the server's, on the same machine.
  pageOrigin = `http://localhost:${(pages.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS,
    headless: true,
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Network access off: only loopback answers. Anything else is recorded and refused.
  await context.route("**/*", (route) => {
    const { hostname } = new URL(route.request().url());
    if (["127.0.0.1", "localhost", "[::1]"].includes(hostname)) return route.continue();
    leaving.push(route.request().url());
    return route.abort("internetdisconnected");
  });
  await mkdir(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  pages?.closeAllConnections();
  await new Promise((resolve) => pages?.close(resolve));
  await serve?.close();
});

describe("a generated client in Chromium, calling flowgen serve from another origin", () => {
  // One page of the other origin, as a frontend's: each case makes its own client and shows its
  // answer under its own id, so the cases share the page and its scripts.
  let page: Page;
  beforeAll(async () => {
    page = await context.newPage();
    await page.goto(`${pageOrigin}/`);
    await page.addScriptTag({ url: "/flows.js", type: "module" });
    await page.addScriptTag({ url: "/query.js", type: "module" });
  });
  afterAll(() => page?.close());

  it("shows the typed answer, and reads the rate-limit headers CORS exposes", async () => {
    await page.evaluate(
      ([url, key]) => (globalThis as unknown as Demo).demo.withKey(url!, key!),
      [serve.url, KEY],
    );
    expect(await page.locator("#with-key").textContent()).toBe("answer: Paris");
    expect(await page.locator("#rate-limit").textContent()).toMatch(/^remaining: \d+$/);
  });

  it("shows the code of the FlowError a bad input gets", async () => {
    await page.evaluate(
      ([url, key]) => (globalThis as unknown as Demo).demo.badInput(url!, key!),
      [serve.url, KEY],
    );
    expect(await page.locator("#bad-input").textContent()).toBe("invalid_input invalid_input 400");
  });

  it("asks a token function for a new key after a 401, and succeeds with it", async () => {
    await page.evaluate((url) => (globalThis as unknown as Demo).demo.withTokens(url), serve.url);
    expect(await page.locator("#with-tokens").textContent()).toBe("answer: Paris after 2 tokens");
  });

  it("calls through a same-origin proxy with no key in the page", async () => {
    await page.evaluate(() => (globalThis as unknown as Demo).demo.throughProxy());
    expect(await page.locator("#through-proxy").textContent()).toMatch(/^answer: /);
  });

  it("works with TanStack Query through openapi-react-query on qa.client", async () => {
    await page.evaluate(
      ([url, key]) => (globalThis as unknown as Demo).mountQuery(url!, key!),
      [serve.url, KEY],
    );
    await page.locator("#query", { hasText: "query answer:" }).waitFor();
    expect(await page.locator("#query").textContent()).toBe("query answer: PARIS");
  });
});

describe("the API reference in Chromium", () => {
  // One load of /docs for both cases (the reference is a large application to load): the second
  // case goes on in the page the first left.
  let page: Page;
  beforeAll(async () => {
    page = await context.newPage();
    await page.goto(`${serve.url}/docs/`);
  });
  afterAll(() => page?.close());

  it("renders every flow of the specs at /docs with network access off", async () => {
    const document = (await (await fetch(`${serve.url}/openapi.json`)).json()) as {
      paths: Record<string, { post: { summary: string } }>;
    };
    const summaries = Object.values(document.paths).map(({ post }) => post.summary);
    expect(summaries).toHaveLength(serve.flows.length);
    for (const summary of summaries)
      await page.getByText(summary, { exact: true }).first().waitFor({ state: "attached" });
    await page.screenshot({ path: path.join(ARTIFACTS, "docs.png") });
    const text = await page.locator("body").innerText();
    for (const flowPath of Object.keys(document.paths)) expect(text).toContain(flowPath);
    // An operation's example call is its generated client's (x-codeSamples).
    await page.getByText("Answer a question", { exact: true }).first().click();
    await page.getByText("createQaClient").first().waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, "docs-flow.png") });
    expect(leaving).toEqual([]);
  });

  it("its Test Request calls this server with the key the reader pastes", async () => {
    await page.getByText("Answer a question", { exact: true }).first().click();
    await page.getByRole("button", { name: "Test Request" }).first().click();
    await page.locator('input[id^="scalar-client"][placeholder="Token"]').fill(KEY);
    const before = accessLog.length;
    await page.getByRole("button", { name: "Send" }).first().click();
    await page.getByText("200 OK").first().waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, "docs-try-it.png") });
    expect(accessLog.slice(before)).toEqual([
      expect.objectContaining({ method: "POST", status: 200, key: expect.any(String) }),
    ]);
    expect(leaving).toEqual([]);
  });
});

interface Demo {
  demo: {
    withKey(baseUrl: string, apiKey: string): Promise<void>;
    badInput(baseUrl: string, apiKey: string): Promise<void>;
    withTokens(baseUrl: string): Promise<void>;
    throughProxy(): Promise<void>;
  };
  mountQuery(baseUrl: string, apiKey: string): void;
}
