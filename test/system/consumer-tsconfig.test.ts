import { readdir } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import path from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { RUNTIME_TYPE_EXPORTS, RUNTIME_VALUE_EXPORTS } from "../../src/emit/runtime-exports.js";
import { REPO_ROOT, tempProject } from "../helpers/temp-dir.js";
import {
  createCachedProgram,
  emitProject,
  programDiagnostics,
  setUpProject,
  typecheck,
  type ProjectShape,
} from "../helpers/typecheck.js";

/**
 * A consumer that uses what the README shows: the key from the environment (a `string | undefined`,
 * which `exactOptionalPropertyTypes` is strict about), a shared transport, middleware on the
 * openapi-fetch client, its typed `POST`, and narrowing of errors.
 */
function consumer(keySource: string): string {
  return `
import type { Middleware } from "openapi-fetch";
import { createQaClient, type QaInput, type QaOutput } from "./gen/@acme/qa.js";
import { acmeSearch, createFlowTransport, FlowError, globexSearch, isFlowError } from "./gen/index.js";

${keySource}
const transport = createFlowTransport({ maxConcurrency: 4 });
const qa = createQaClient({ apiKey, baseUrl: "http://127.0.0.1:1", transport });
const tracing: Middleware = {
  onRequest({ request }) {
    request.headers.set("x-trace", "1");
    return request;
  },
};
qa.client.use(tracing);

export async function ask(): Promise<string> {
  const input: QaInput = { question: "Capital of France?", options: ["Paris", "Lyon"] };
  const output: QaOutput = await qa.run(input, { timeoutMs: 1000, idempotencyKey: "order-1" });
  const direct = await qa.client.POST("/v1/@acme/qa", { body: input });
  const result = await qa.call(input);
  if (result.error) {
    if (isFlowError(result.error) && result.error.kind === "auth") return String(result.error.status);
    return result.error instanceof FlowError ? result.error.code : "never";
  }
  // @ts-expect-error question must be a string
  await qa.run({ question: 1 });
  // @ts-expect-error the client knows its own flow's path only
  await qa.client.POST("/v1/@acme/search", { body: { text: "x" } });
  // @ts-expect-error same flow name, other org: other input
  await acmeSearch.createSearchClient({ apiKey: "k" }).run({ text: "x" });
  await globexSearch.createSearchClient({ apiKey: "k", transport }).run({ text: "x" });
  return output.answer + result.data.answer + (direct.data?.answer ?? "") + String(qa.rateLimit?.remaining);
}
`;
}

const FROM_NODE = "const apiKey = process.env.FLOW_API_KEY;";
const FROM_PAGE =
  "const apiKey: string | undefined = (globalThis as { FLOW_API_KEY?: string }).FLOW_API_KEY;";

describe("generated code in the tsconfig shapes projects use", () => {
  it.each<[ProjectShape, string]>([
    ["NodeNext", FROM_NODE],
    ["node-no-dom", FROM_NODE],
    ["node16-commonjs", FROM_NODE],
    ["Bundler", FROM_PAGE],
    ["not-strict", FROM_PAGE],
    ["vite-es2020", FROM_PAGE],
    ["tsc-init-es2016", FROM_NODE],
    ["isolated-declarations", FROM_NODE],
  ])("%s: the repo's generated/ and a consumer compile", async (shape, keySource) => {
    const dir = await tempProject({});
    expect(
      await typecheck(dir, path.join(REPO_ROOT, "generated"), consumer(keySource), shape),
    ).toBe("");
  });
});

describe("a CommonJS project", () => {
  it("runs the compiled client: openapi-fetch's CommonJS build is loaded and the call reaches a loopback server", async () => {
    const dir = await tempProject({});
    const caller = `
import { createQaClient } from "./gen/@acme/qa.js";
export const ask = (baseUrl: string) => createQaClient({ apiKey: "sk_cjs_0123456789", baseUrl }).run({ question: "Why?" });
`;
    await setUpProject(dir, path.join(REPO_ROOT, "generated"), caller, "node16-commonjs");
    expect(emitProject(dir)).toBe("");
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ answer: `${req.url} ${req.headers.authorization}` }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { ask } = createRequire(import.meta.url)(path.join(dir, "out/consumer.js")) as {
        ask: (baseUrl: string) => Promise<{ answer: string }>;
      };
      const output = await ask(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      expect(output).toEqual({ answer: "/v1/@acme/qa Bearer sk_cjs_0123456789" });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("the runtime's own source", () => {
  const index = path.join(REPO_ROOT, "templates/runtime/index.ts");
  /** The runtime and its tests under the repo's tsconfig plus exactOptionalPropertyTypes: both cases read it. */
  let program: ts.Program;
  let tests: string[];
  beforeAll(async () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(REPO_ROOT, "tsconfig.json"),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
    const runtime = path.dirname(index);
    tests = (await readdir(path.join(REPO_ROOT, "test")))
      .filter((name) => /^runtime.*\.test\.ts$/.test(name))
      .map((name) => path.join(REPO_ROOT, "test", name));
    const files = [...(await readdir(runtime)).map((name) => path.join(runtime, name)), ...tests];
    program = createCachedProgram(files, {
      ...config?.options,
      exactOptionalPropertyTypes: true,
      noEmit: true,
    });
  });

  it("compiles with its tests under the repo's tsconfig plus exactOptionalPropertyTypes (type-level tests included)", () => {
    expect(tests.length).toBeGreaterThan(0);
    expect(programDiagnostics(program)).toBe("");
  });

  it("exports exactly the names flowgen's list says (src/emit/runtime-exports.ts), values and types apart", () => {
    const checker = program.getTypeChecker();
    const module = checker.getSymbolAtLocation(program.getSourceFile(index)!)!;
    const exports = checker.getExportsOfModule(module).map((symbol) => {
      const target =
        symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return { name: symbol.name, value: (target.flags & ts.SymbolFlags.Value) !== 0 };
    });
    const names = (value: boolean) =>
      exports
        .filter((e) => e.value === value)
        .map((e) => e.name)
        .sort();
    expect(names(true)).toEqual([...RUNTIME_VALUE_EXPORTS].sort());
    expect(names(false)).toEqual([...RUNTIME_TYPE_EXPORTS].sort());
  });
});
