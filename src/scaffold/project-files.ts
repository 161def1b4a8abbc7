/** The npm scripts `flowgen init` adds, by name. Existing scripts of the same name are kept. */
export const INIT_SCRIPTS = {
  "flowgen:generate": "flowgen generate",
  "flowgen:check": "flowgen generate --check",
  "flowgen:watch": "flowgen generate --watch",
  "flowgen:serve": "flowgen serve",
} as const;

/**
 * The config file `flowgen init` writes: the defaults spelled out, so people see what to change.
 *
 * @example
 * await writeFile("flowgen.config.ts", configFileText({ specs: "specs", out: "generated" }));
 */
export function configFileText(settings: { readonly specs: string; readonly out: string }): string {
  return [
    `import { defineConfig } from "flowgen-cli";`,
    ``,
    `export default defineConfig({`,
    `  specs: ${JSON.stringify(settings.specs)},`,
    `  out: ${JSON.stringify(settings.out)},`,
    `  // baseUrl: "https://api.example.com",`,
    `  // validators: true,`,
    `  // serve: { port: 8787, handlers: "handlers" },`,
    `});`,
    ``,
  ].join("\n");
}

/**
 * package.json with the flowgen scripts added, in the file's own indentation; `added` lists the
 * scripts that were not there yet. Without a package.json, a minimal private one.
 *
 * @example
 * const { text, added } = addScripts(await readFile("package.json", "utf8"), "my-app");
 */
export function addScripts(
  manifest: string | undefined,
  name: string,
): { text: string; added: string[] } {
  const indent = manifest === undefined ? "  " : (/^[ \t]+(?=")/m.exec(manifest)?.[0] ?? "  ");
  const json = (
    manifest === undefined ? { name, private: true, type: "module" } : JSON.parse(manifest)
  ) as Record<string, unknown>;
  const scripts = { ...(json["scripts"] as Record<string, string> | undefined) };
  const added = Object.entries(INIT_SCRIPTS)
    .filter(([script]) => scripts[script] === undefined)
    .map(([script, command]) => ((scripts[script] = command), script));
  return { text: `${JSON.stringify({ ...json, scripts }, null, indent)}\n`, added };
}

/**
 * `.gitattributes` with the output folder marked as generated, so code review and language
 * statistics on GitHub collapse it, and checked out with LF line ends: flowgen writes LF, and
 * `core.autocrlf=true` (Git for Windows' default) would otherwise check every file out with CRLF,
 * which `generate --check` then finds changed. Unchanged when the line is there already; the line
 * an earlier init wrote, without `eol=lf`, is completed.
 *
 * @example
 * gitattributesText(undefined, "generated") // "generated/** linguist-generated=true eol=lf\n"
 */
export function gitattributesText(current: string | undefined, out: string): string {
  const pattern = attributesPattern(out.replace(/\/+$/, ""));
  const line = `${pattern} linguist-generated=true eol=lf`;
  if (current === undefined) return `${line}\n`;
  const lines = current.split("\n");
  if (lines.some((existing) => existing.trim() === line)) return current;
  const earlier = lines.findIndex(
    (existing) => existing.trim() === `${pattern} linguist-generated=true`,
  );
  if (earlier !== -1) {
    const ending = lines[earlier]?.endsWith("\r") === true ? "\r" : "";
    return lines.map((existing, i) => (i === earlier ? `${line}${ending}` : existing)).join("\n");
  }
  return `${current}${current === "" || current.endsWith("\n") ? "" : "\n"}${line}\n`;
}

/**
 * The .gitattributes pattern for everything under `folder`, as gitattributes(5) reads one: a
 * pattern ends at the first blank, so a folder with a space, a tab or a quote in its name is
 * written C-style quoted ("we ird/gen/**"); and the pattern is a glob that may not start with `!`
 * nor be a `#` comment, so the folder's glob characters and such a first letter are escaped.
 *
 * @example
 * attributesPattern("we ird/gen"); // '"we ird/gen/**"'
 */
export function attributesPattern(folder: string): string {
  const glob = `${folder.replace(/[\\*?[]/g, "\\$&").replace(/^[!#]/, "\\$&")}/**`;
  const characters = [...glob];
  const plain = characters.every((c) => c !== '"' && !/\s/.test(c) && !isControl(c));
  return plain ? glob : `"${characters.map(quoteCharacter).join("")}"`;
}

/** One character inside a C-style quoted pattern, as git unquotes it: `\\`, `\"`, `\t`, octal. */
function quoteCharacter(character: string): string {
  if (character === "\\" || character === '"') return `\\${character}`;
  if (!isControl(character)) return character;
  const named: Record<string, string> = { "\t": "t", "\n": "n", "\r": "r" };
  return `\\${named[character] ?? character.charCodeAt(0).toString(8).padStart(3, "0")}`;
}

function isControl(character: string): boolean {
  const code = character.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}
