import { hashContent, MANIFEST_PATH, parseManifest } from "../manifest/output-manifest.js";

/**
 * Present in the output folder while files are replaced one by one: a crash then leaves a mix of
 * old and new files, and this marker (with any `*.flowgen-tmp-*` file) shows as an extra file, so
 * `--check` reports the folder stale and the next `generate` repairs it and removes the marker.
 */
export const WRITING_MARKER = ".flowgen-writing";

/** What a file being replaced in place is first written as: `<file>.flowgen-tmp-<pid>`. */
export const TEMPORARY = ".flowgen-tmp-";

/** How many of the files flowgen will not remove a message names. */
const NAMED = 5;

/**
 * The files among `removed` that flowgen may not remove, sorted. A flowgen-like `index.ts` only
 * claims the folder (anyone can copy one in), and so does a manifest: a file is flowgen's to remove
 * when the folder's manifest records it with the content it has now (the file flowgen wrote,
 * untouched since, CRLF line ends read as LF), or when it is what a stopped run left (the writing marker, a temporary file).
 * Anything else may be someone's work. Links are not files: removing one loses nothing behind it.
 *
 * @example
 * const foreign = findForeignFiles(contents, diff.removed); // ["main.ts"]
 */
export function findForeignFiles(
  contents: ReadonlyMap<string, string>,
  removed: readonly string[],
): string[] {
  const manifestText = contents.get(MANIFEST_PATH);
  const recorded = manifestText === undefined ? undefined : parseManifest(manifestText)?.files;
  return removed.filter((file) => {
    const content = contents.get(file);
    if (content === undefined || isLeftover(file)) return false;
    // Own keys only: a path such as "constructor" is not recorded by the object's prototype.
    const entry =
      recorded !== undefined && Object.hasOwn(recorded, file) ? recorded[file] : undefined;
    if (entry?.output === undefined) return true;
    // A checkout under core.autocrlf=true gives flowgen's LF files CRLF: the same content.
    return (
      entry.output !== hashContent(content) &&
      entry.output !== hashContent(content.replace(/\r\n/g, "\n"))
    );
  });
}

/**
 * Why the folder cannot be written, naming the files that would be lost.
 *
 * @example
 * throw new ForeignOutputError(outDir, "", describeForeignFiles(["main.ts"]));
 */
export function describeForeignFiles(files: readonly string[]): string {
  const named = files.slice(0, NAMED).join(", ");
  const more = files.length > NAMED ? ` and ${files.length - NAMED} more` : "";
  return `holds files flowgen did not write, or changed since it wrote them: ${named}${more}; generate would remove them, and removes only what its manifest (${MANIFEST_PATH}) records with the content it has: move them out of this folder, or choose another --out`;
}

/** What a stopped run of flowgen left in the folder: its marker, or a temporary file. */
function isLeftover(file: string): boolean {
  const temporary = file.lastIndexOf(TEMPORARY);
  return (
    file === WRITING_MARKER ||
    (temporary > 0 && /^\d+$/.test(file.slice(temporary + TEMPORARY.length)))
  );
}
