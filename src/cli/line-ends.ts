/**
 * `committed` as flowgen compares it once CRLF line ends are read as LF, and whether it had any:
 * git checks out LF files with CRLF under `core.autocrlf=true` (Git for Windows' default), which
 * would make every line of a diff look changed.
 *
 * @example
 * readLineEnds("a\r\nb\r\n"); // { text: "a\nb\n", crlf: true }
 */
export function readLineEnds(committed: string): { text: string; crlf: boolean } {
  const text = committed.replace(/\r\n/g, "\n");
  return { text, crlf: text.length !== committed.length };
}

/**
 * What `--check` says when files in the output folder have CRLF line ends: how many, how many of
 * them differ in nothing else, and what to do.
 *
 * @example
 * describeLineEnds("generated", 12, 12);
 */
export function describeLineEnds(out: string, crlf: number, only: number): string {
  const files = crlf === 1 ? "1 file has" : `${crlf} files have`;
  const nothingElse =
    only === crlf
      ? crlf === 1
        ? "it differs in nothing else"
        : "they differ in nothing else"
      : `${only} of them differ in nothing else`;
  return `flowgen: ${files} CRLF line ends where flowgen writes LF (${nothingElse}), as git checks files out with core.autocrlf=true (Git for Windows' default). Add eol=lf to the .gitattributes line for ${out}/ and commit it (flowgen init writes "${out}/** linguist-generated=true eol=lf"), so that checkouts keep LF; then flowgen generate rewrites these files with LF, which git sees as no change (files committed with CRLF need git add --renormalize ${out} as well).`;
}
