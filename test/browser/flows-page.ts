// A page's script, bundled by esbuild for the browser test: a generated client called from
// another origin with a key, with a token function, and through a same-origin proxy.
import { createQaClient, type QaOutput } from "../../generated/@acme/qa.js";
import { isFlowError } from "../../generated/index.js";

/** Shows one line of text on the page, under an id the test looks for. */
function show(id: string, text: string): void {
  const line = document.createElement("p");
  line.id = id;
  line.textContent = text;
  document.body.append(line);
}

/** The answer as the page shows it: its type is the flow's output type. */
function describeAnswer(output: QaOutput): string {
  return `answer: ${output.answer}`;
}

const demo = {
  /** A key pasted into the page (as a developer does against flowgen serve). */
  async withKey(baseUrl: string, apiKey: string): Promise<void> {
    const qa = createQaClient({ baseUrl, apiKey });
    show("with-key", describeAnswer(await qa.run({ question: "What is the capital of France?" })));
    show("rate-limit", `remaining: ${String(qa.rateLimit?.remaining)}`);
  },

  /** A bad input: the server's 400 reaches the page as a FlowError with its code. */
  async badInput(baseUrl: string, apiKey: string): Promise<void> {
    const qa = createQaClient({ baseUrl, apiKey });
    const { error } = await qa.call({ question: 42 } as unknown as { question: string });
    show("bad-input", isFlowError(error) ? `${error.kind} ${error.code} ${error.status}` : "none");
  },

  /** Short-lived tokens from the page's own backend, asked for before every attempt. */
  async withTokens(baseUrl: string): Promise<void> {
    let asked = 0;
    const qa = createQaClient({
      baseUrl,
      apiKey: async () => {
        asked++;
        const response = await fetch("/token", { method: "POST" });
        return ((await response.json()) as { token: string }).token;
      },
    });
    const output = await qa.run({ question: "What is the capital of France?" });
    show("with-tokens", `${describeAnswer(output)} after ${asked} tokens`);
  },

  /** No key in the page at all: its own origin's proxy adds it. */
  async throughProxy(): Promise<void> {
    const qa = createQaClient({ auth: false, baseUrl: location.origin });
    show("through-proxy", describeAnswer(await qa.run({ question: "Who?" })));
  },
};

Object.assign(globalThis, { demo });
