/**
 * An escape that can spell a key's letters, so that a key is not in a file's text as the parsers
 * read it: JSON's `\u`, YAML's `\x`, `\u` and `\U`, or a quoted key broken over lines. Scans of
 * spec texts that look for a key by its letters count such a file as holding it.
 */
export const KEY_ESCAPE = /\\[uUx\r\n]/;
