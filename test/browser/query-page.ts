// A React page using TanStack Query on a flow's openapi-fetch client (openapi-react-query), as a
// frontend would; bundled by esbuild for the browser test.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import createQueryHooks from "openapi-react-query";
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { createQaClient } from "../../generated/@acme/qa.js";

function Answer(props: { $api: ReturnType<typeof queryHooks> }) {
  const { data, error, isPending } = props.$api.useQuery("post", "/v1/@acme/qa", {
    body: { question: "What is the capital of France?" },
  });
  if (isPending) return createElement("p", { id: "query" }, "loading");
  if (error) return createElement("p", { id: "query" }, `error: ${error.code}`);
  // `data` is typed from the flow's output schema: `answer` is a string.
  return createElement("p", { id: "query" }, `query answer: ${data?.answer.toUpperCase()}`);
}

function queryHooks(baseUrl: string, apiKey: string) {
  return createQueryHooks(createQaClient({ baseUrl, apiKey }).client);
}

function mount(baseUrl: string, apiKey: string): void {
  const root = document.createElement("div");
  document.body.append(root);
  createRoot(root).render(
    createElement(
      QueryClientProvider,
      { client: new QueryClient() },
      createElement(Answer, { $api: queryHooks(baseUrl, apiKey) }),
    ),
  );
}

Object.assign(globalThis, { mountQuery: mount });
