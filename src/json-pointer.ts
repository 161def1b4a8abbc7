/** RFC 6901 JSON pointers. */

export function escapePointerToken(token: string): string {
  // Most tokens need no escape: checked first, since schema walks join a pointer per node.
  return token.includes("~") || token.includes("/")
    ? token.replace(/~/g, "~0").replace(/\//g, "~1")
    : token;
}

export function unescapePointerToken(token: string): string {
  return token.includes("~") ? token.replace(/~1/g, "/").replace(/~0/g, "~") : token;
}

export function joinPointer(pointer: string, ...tokens: ReadonlyArray<string | number>): string {
  let joined = pointer;
  for (const token of tokens)
    joined += `/${typeof token === "number" ? token : escapePointerToken(token)}`;
  return joined;
}

export function splitPointer(pointer: string): string[] {
  if (pointer === "") return [];
  const tokens = pointer.slice(1).split("/");
  // Schema walks split a pointer per `$ref`: most hold no escape at all.
  return pointer.includes("~") ? tokens.map(unescapePointerToken) : tokens;
}

/** The value at `pointer`, or undefined when any step is missing. */
export function getAtPointer(root: unknown, pointer: string): unknown {
  let node = root;
  for (const token of splitPointer(pointer)) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (isPlainObject(node) && Object.hasOwn(node, token)) {
      node = node[token];
    } else {
      return undefined;
    }
  }
  return node;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
