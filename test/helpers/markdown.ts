import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./temp-dir.js";

/** One Markdown page of the documentation: its path from the repository root, and its text. */
export interface Page {
  readonly file: string;
  readonly text: string;
}

/** A fenced code block: its language (the info string's first word), its text and first line. */
export interface CodeBlock {
  readonly page: string;
  readonly lang: string;
  readonly code: string;
  /** 1-based line of the block's first code line in its page. */
  readonly line: number;
}

/** The README and every page of docs/, in a stable order. */
export function readPages(): Page[] {
  const docs = readdirSync(path.join(REPO_ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs].map((file) => ({
    file,
    text: readFileSync(path.join(REPO_ROOT, file), "utf8"),
  }));
}

/** The fenced (```) code blocks of a page. */
export function codeBlocks(page: Page): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = page.text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)/.exec(lines[i] ?? "");
    if (open === null) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith("```"));
    if (end === -1) throw new Error(`${page.file}:${i + 1}: a code block is never closed`);
    const code = lines.slice(i + 1, end).join("\n");
    blocks.push({ page: page.file, lang: open[1] ?? "", code: `${code}\n`, line: i + 2 });
    i = end;
  }
  return blocks;
}

/** The page's text without its code blocks, where headings and links are read. */
export function prose(page: Page): string {
  return page.text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, "");
}

/**
 * The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens,
 * and `-1`, `-2` after repeats.
 */
export function anchors(page: Page): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of prose(page).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = (heading ?? "")
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** Every Markdown link's target on the page, outside code blocks. */
export function links(page: Page): string[] {
  return [...prose(page).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? "");
}

/**
 * The rows of the first Markdown table after `heading`, as cells (the header and separator rows
 * left out).
 */
export function tableAfter(page: Page, heading: string): string[][] {
  const text = `\n${prose(page)}`;
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`${page.file}: no heading ${heading}`);
  const lines = text.slice(start).split("\n");
  const first = lines.findIndex((line) => line.startsWith("|"));
  const table: string[][] = [];
  // The header row and the separator row come first.
  for (const row of lines.slice(first + 2)) {
    if (!row.startsWith("|")) break;
    table.push(
      row
        .slice(1, -1)
        .split(" | ")
        .map((cell) => cell.trim()),
    );
  }
  return table;
}
