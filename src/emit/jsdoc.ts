/**
 * Text from specs lands in generated comments; `*\/` inside it would end the comment and turn the
 * rest into code. Escaping the slash keeps it text. `/*` is escaped too: ts-morph's writer takes it
 * for the start of a nested comment and then closes the JSDoc early.
 */
export function jsDocText(text: string): string {
  return text.replace(/\*\//g, "*\\/").replace(/\/\*/g, "/\\*").replace(/\r\n?/g, "\n");
}
