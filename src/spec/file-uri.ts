/** Base URI of a file in the specs folder; relative `$ref`s resolve against it (RFC 3986 §5.2). */
export function fileUri(relPath: string, part?: "input" | "output"): string {
  return `file:///${encodeURI(relPath)}${part ? `?${part}` : ""}`;
}
