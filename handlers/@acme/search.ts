// A handler for `flowgen serve`: @acme/search answers from a small in-memory set of articles.
// Flows without a handler file answer with mocks (the spec's examples, else generated data).
import { defineFlow } from "flowgen-cli/serve";
import type {
  SearchInput,
  SearchOutput,
} from "../../generated/@acme/search.js";

const ARTICLES = [
  {
    id: "kb-1",
    title: "Reset your password",
    body: "Open Settings, choose Security, then Reset password.",
  },
  {
    id: "kb-2",
    title: "Invite a teammate",
    body: "Admins can invite teammates from the Members page.",
  },
  {
    id: "kb-3",
    title: "Export invoices",
    body: "Invoices export as CSV or PDF from the Billing page.",
  },
];

export default defineFlow<SearchInput, SearchOutput>(({ query, page }) => {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const hits = ARTICLES.map((article) => {
    const text = `${article.title} ${article.body}`.toLowerCase();
    const found = words.filter((word) => text.includes(word)).length;
    return {
      id: article.id,
      title: article.title,
      snippet: article.body,
      score: words.length === 0 ? 0 : found / words.length,
    };
  })
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score);
  return { hits: hits.slice(0, page?.size ?? 20) };
});
