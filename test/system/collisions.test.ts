import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, tempProject } from "../helpers/temp-dir.js";
import { typecheck } from "../helpers/typecheck.js";

describe("flows named like the runtime's exports, and a $ref cycle across shared files", () => {
  it("give code a consumer can use side by side with the runtime", async () => {
    const consumer = `
import { createFlowClient, type FlowClient, type FlowInput, type FlowOutput } from "./gen/@acme/flow.js";
import * as runtime from "./gen/runtime/index.js";
import { acmeFlow, isFlowError, is$flow_error, create$flow_client, create$flow_transport, createFlowTransport, withMiddleware, a_1$deep, a1$deep } from "./gen/index.js";
import type { components } from "./gen/@is/flow-error.types.js";
const client: FlowClient = createFlowClient({ apiKey: "k", baseUrl: "http://127.0.0.1:1" });
const input: FlowInput = { tree: { label: "root", children: [{ label: "leaf", children: [] }] }, address: "x", Address: { line: "1" } };
type Value = components["schemas"]["_shared.json-value"];
const value: Value = { a: [1, "two", { b: [null, true] }] };
export async function use(): Promise<unknown> {
  const output: FlowOutput = await client.run(input);
  // @ts-expect-error a tree's label is a string
  await client.run({ tree: { label: 1 } });
  // @ts-expect-error no value is undefined
  const bad: Value = { a: [undefined] };
  const flows = [acmeFlow.flowFlow, is$flow_error.flowErrorFlow, create$flow_client.flowClientFlow, create$flow_transport.flowTransportFlow, withMiddleware.middlewareFlow];
  await a_1$deep.createDeepClient({ apiKey: "k" }).run({ a: "x" });
  await a1$deep.createDeepClient({ apiKey: "k" }).run({ b: 1 });
  return [output.forest?.[0]?.children, value, bad, flows, isFlowError(null), typeof createFlowTransport, runtime.createFlowClient];
}
`;
    const dir = await tempProject({});
    expect(
      await typecheck(
        dir,
        path.join(REPO_ROOT, "test/golden/collisions/expected"),
        consumer,
        "NodeNext",
      ),
    ).toBe("");
  }, 60_000);
});
