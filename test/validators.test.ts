import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createFlowClient, type FlowClient } from "../templates/runtime/index.js";
import { failureOf } from "./helpers/flow-error.js";
import { renderProject } from "../src/generate.js";
import { createAjv } from "../src/spec/ajv.js";
import { writeOutput } from "../src/write/write-output.js";
import { tempProject } from "./helpers/temp-dir.js";
import { generateWithValidators } from "./helpers/validators-project.js";

interface QaInput {
  question: string;
  options?: string[];
}
interface QaOutput {
  answer: string;
}
type CreateQaClient = (options: Record<string, unknown>) => FlowClient<QaInput, QaOutput>;

describe("clients generated with --validators", () => {
  let server: Server;
  let baseUrl: string;
  let requests = 0;
  let answer: unknown = { answer: "Paris" };
  let createQaClient: CreateQaClient;
  let generated: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests++;
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "flowgen-validators-"));
    generated = await generateWithValidators(root);
    const module = (await import(pathToFileURL(path.join(generated, "@acme/qa.ts")).href)) as {
      createQaClient: CreateQaClient;
    };
    createQaClient = module.createQaClient;
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("refuses invalid input before sending, with a pointer per violation", async () => {
    const before = requests;
    const qa = createQaClient({ apiKey: "k", baseUrl });
    const error = await failureOf(qa.run({ question: "", options: [1] } as unknown as QaInput));
    expect(requests).toBe(before);
    expect(error).toMatchObject({
      kind: "invalid_input",
      code: "invalid_input",
      status: 0,
      response: undefined,
    });
    expect(error.details).toEqual([
      { pointer: "/question", message: "is too short" },
      { pointer: "/options/0", message: "has the wrong type" },
    ]);
    expect(error.message).toBe(
      "@acme/qa: the input does not match the flow's input schema\n  /question: is too short\n  /options/0: has the wrong type",
    );
  });

  it("reports output that breaks the output schema as invalid_response", async () => {
    answer = { answer: 42, extra: true };
    try {
      const error = await failureOf(
        createQaClient({ apiKey: "k", baseUrl }).run({ question: "Why?" }),
      );
      expect(error).toMatchObject({
        kind: "invalid_response",
        code: "invalid_output",
        status: 200,
      });
      expect(error.details).toEqual([{ pointer: "/answer", message: "has the wrong type" }]);
      expect(error.response?.status).toBe(200);
    } finally {
      answer = { answer: "Paris" };
    }
  });

  it("only warns in warn mode, and checks nothing when turned off", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const warned = createQaClient({ apiKey: "k", baseUrl, validate: "warn" });
      expect(await warned.run({ question: "" })).toEqual({ answer: "Paris" });
      expect(warn).toHaveBeenCalledOnce();
      expect(warn.mock.calls[0]?.[0]).toBe(
        "@acme/qa: the input does not match the flow's input schema\n  /question: is too short",
      );
      const off = createQaClient({ apiKey: "k", baseUrl, validate: false });
      expect(await off.run({ question: "" })).toEqual({ answer: "Paris" });
      expect(warn).toHaveBeenCalledOnce();
    } finally {
      warn.mockRestore();
    }
  });

  it("passes valid input and output through", async () => {
    expect(
      await createQaClient({ apiKey: "k", baseUrl }).run({
        question: "Capital?",
        options: ["Paris"],
      }),
    ).toEqual({ answer: "Paris" });
  });
});

/** The project in `dir` rendered with --validators, in memory. */
function renderWithValidators(dir: string) {
  return renderProject({ specs: "specs", out: "generated", cwd: dir, validators: true });
}

describe("validators of OpenAPI's formats", () => {
  it("compile, and check what serve's Ajv checks: int32's range, int64's whole numbers, byte's base64", async () => {
    const dir = await tempProject({
      "package.json": { name: "formats", private: true, type: "module" },
      "specs/@acme/formats.json": {
        input: {
          type: "object",
          properties: Object.fromEntries(
            ["int32", "int64", "float", "double"]
              .map((format) => [
                format,
                { type: format.startsWith("int") ? "integer" : "number", format },
              ])
              .concat(
                ["byte", "password", "binary"].map((format) => [
                  format,
                  { type: "string", format },
                ]),
              ),
          ),
        },
        output: { type: "object" },
      },
    });
    const result = await renderWithValidators(dir);
    expect(result.ok ? [] : result.issues).toEqual([]);
    if (!result.ok) return;
    await writeOutput(path.join(dir, "generated"), result.files);
    const { formatsValidators } = (await import(
      pathToFileURL(path.join(dir, "generated/@acme/formats.validators.ts")).href
    )) as { formatsValidators: { input: (value: unknown) => readonly unknown[] } };
    const passes = (value: unknown) => formatsValidators.input(value).length === 0;
    expect(
      passes({
        int32: 7,
        int64: 2 ** 40,
        float: 0.5,
        double: 1e300,
        byte: "aGk=",
        password: "x",
        binary: "\u0000",
      }),
    ).toBe(true);
    expect(passes({ int32: 2 ** 31 })).toBe(false);
    expect(passes({ int32: -(2 ** 31) })).toBe(true);
    expect(passes({ byte: "not base64!" })).toBe(false);
    expect(passes({ int64: 1.5 })).toBe(false);
  });
});

describe("validators of formats ajv-formats defines by a pattern", () => {
  it("read them as serve's Ajv does: uuid, email and duration", async () => {
    const dir = await tempProject({
      "package.json": { name: "formats", private: true, type: "module" },
      "specs/@acme/patterns.json": {
        input: {
          type: "object",
          properties: Object.fromEntries(
            ["uuid", "email", "duration"].map((format) => [format, { type: "string", format }]),
          ),
        },
        output: { type: "object" },
      },
    });
    const result = await renderWithValidators(dir);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    await writeOutput(path.join(dir, "generated"), result.files);
    const { patternsValidators } = (await import(
      pathToFileURL(path.join(dir, "generated/@acme/patterns.validators.ts")).href
    )) as { patternsValidators: { input: (value: unknown) => readonly unknown[] } };
    const ajv = createAjv().compile({
      type: "object",
      properties: Object.fromEntries(
        ["uuid", "email", "duration"].map((format) => [format, { type: "string", format }]),
      ),
    });
    for (const value of [
      { uuid: "urn:uuid:123e4567-e89b-12d3-a456-426614174000" },
      { email: "a@b" },
      { email: "a@example.com" },
      { duration: "P1.5D" },
      { duration: "P1D" },
    ])
      expect(patternsValidators.input(value).length === 0, JSON.stringify(value)).toBe(ajv(value));
  });
});

describe("validators of formats no one defines", () => {
  it("are refused, every such format of a schema named in one run", async () => {
    const dir = await tempProject({
      "specs/@acme/made-up.json": {
        input: {
          type: "object",
          properties: {
            a: { type: "string", format: "money" },
            b: { type: "string", format: "colour" },
          },
        },
        output: { type: "object" },
      },
    });
    const result = await renderWithValidators(dir);
    expect(result.ok ? [] : result.issues.map((issue) => issue.message)).toEqual([
      'the input schema cannot be compiled into a validator: Unrecognized formats used: "money" at #/properties/a, "colour" at #/properties/b; change the schema, or generate without --validators',
    ]);
  });
});

describe("validate without validators", () => {
  it("is refused when the client is made, saying how to get validators", () => {
    const make = () =>
      createFlowClient(
        { id: "@acme/qa", path: "/v1/@acme/qa" },
        {},
        { apiKey: "k", baseUrl: "https://api.example.com", validate: "throw" },
      );
    expect(make).toThrow(TypeError);
    expect(make).toThrow(
      "@acme/qa: validate is set but this client has no validators; run flowgen generate --validators",
    );
  });
});
