/**
 * Text from specs lands in generated comments; `*\/` inside it would end the comment and turn the
 * rest into code. Escaping the slash keeps it text. `/*` is escaped too: ts-morph's writer takes it
 * for the start of a nested comment and then closes the JSDoc early. A line starting with `@` would
 * start a JSDoc tag (a description line `@deprecated` would deprecate the function): TSDoc's `\@`
 * keeps it text, and editors' Markdown hovers show it as `@`.
 *
 * @example
 * jsDocText("Old.\n@deprecated use v2"); // "Old.\n\\@deprecated use v2"
 */
export function jsDocText(text: string): string {
  return text
    .replace(/\*\//g, "*\\/")
    .replace(/\/\*/g, "/\\*")
    .replace(/\r\n?/g, "\n")
    .replace(/^([^\S\n]*)@/gm, "$1\\@");
}
