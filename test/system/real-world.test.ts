import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderProject } from "../../src/generate.js";
import { lintOpenApi } from "../helpers/openapi-lint.js";
import { REPO_ROOT, tempProject } from "../helpers/temp-dir.js";
import { typecheck } from "../helpers/typecheck.js";

/**
 * test/fixtures/real-world/specs: flows written after public APIs (Stripe's payment intents with
 * expandable references and a customer ↔ payment method cycle across shared files, GitHub's
 * issues with `$ref` roots and YAML anchors, Slack's Block Kit union with a discriminator,
 * OpenAI's chat messages by role with an `allOf` root, Twilio's E.164 patterns and `anyOf` of
 * `required`, Kubernetes' self-describing JSONSchemaProps), in the shapes those descriptions use.
 */
const SPECS = path.join(REPO_ROOT, "test/fixtures/real-world");

describe("specs shaped like real public APIs", () => {
  it("generate without a problem, type-check with a consumer, and give an OpenAPI document Redocly and swagger-parser accept", async () => {
    const result = await renderProject({ specs: "specs", out: "generated", cwd: SPECS });
    expect(result.ok ? [] : result.issues).toEqual([]);
    if (!result.ok) return;
    expect(result.flowCount).toBe(6);
    const out = await tempProject({});
    for (const file of result.files) {
      await mkdir(path.dirname(path.join(out, "generated", file.path)), { recursive: true });
      await writeFile(path.join(out, "generated", file.path), file.content);
    }
    const consumer = `
import { createCreatePaymentIntentClient, type CreatePaymentIntentOutput } from "./gen/@stripe/create-payment-intent.js";
import type { CreateIssueInput } from "./gen/@github/create-issue.js";
import type { PostMessageInput } from "./gen/@slack/post-message.js";
import type { CreateChatCompletionInput } from "./gen/@openai/create-chat-completion.js";
import type { ApplyCrdInput } from "./gen/@k8s/apply-crd.js";
const issue: CreateIssueInput = { owner: "octo", repo: "hello", title: "Bug", labels: ["bug", { name: "p1" }], milestone: null };
// @ts-expect-error a $ref root without "type" is still an object with required properties
const noOwner: CreateIssueInput = { repo: "hello", title: "Bug" };
// @ts-expect-error a block is one of the discriminated kinds
const badBlock: PostMessageInput = { channel: "C12345678", blocks: [{ type: "video" }] };
const message: PostMessageInput = { channel: "C12345678", blocks: [{ type: "divider" }, { type: "section", text: { type: "mrkdwn", text: "*hi*" } }] };
const chat: CreateChatCompletionInput = { model: "gpt-4o", messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], temperature: 0.2 };
type Props = NonNullable<NonNullable<NonNullable<ApplyCrdInput["spec"]["versions"][number]["schema"]>["openAPIV3Schema"]>>;
const props: Props = { type: "object", properties: { a: { items: [{ type: "string" }] } }, default: { nested: [1, "x", null] } };
export async function pay(): Promise<string | undefined> {
  const intent: CreatePaymentIntentOutput = await createCreatePaymentIntentClient({ apiKey: "k" }).run({ amount: 2000, currency: "eur" });
  const customer = intent.customer;
  return typeof customer === "object" && customer !== null ? customer.id : [issue, noOwner, badBlock, message, chat, props].length.toString();
}
`;
    expect(await typecheck(out, path.join(out, "generated"), consumer, "NodeNext")).toBe("");
    const openapi = result.files.find((file) => file.path === "openapi.json")?.content ?? "";
    expect(await lintOpenApi(openapi)).toEqual([]);
  }, 60_000);
});
