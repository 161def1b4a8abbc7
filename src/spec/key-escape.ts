/** The characters after a backslash that make an escape able to spell a key's letters (`holdsKeyEscape`). */
const SPELLING = new Set([
  "u".charCodeAt(0),
  "U".charCodeAt(0),
  "x".charCodeAt(0),
  "\r".charCodeAt(0),
  "\n".charCodeAt(0),
]);

/**
 * Whether `text` holds an escape that can spell a key's letters, so that a key is not in the text
 * as the parsers read it: JSON's `\u`, YAML's `\x`, `\u` and `\U`, or a quoted key broken over
 * lines. Scans of spec texts that look for a key by its letters count such a file as holding it.
 * It looks only where a backslash is: most texts have none, and finding that out is many times
 * faster than a regular expression's scan.
 *
 * @example
 * holdsKeyEscape('{ "\\u0024ref": "x" }'); // true
 */
export function holdsKeyEscape(text: string): boolean {
  for (let at = text.indexOf("\\"); at !== -1; at = text.indexOf("\\", at + 1))
    if (SPELLING.has(text.charCodeAt(at + 1))) return true;
  return false;
}
