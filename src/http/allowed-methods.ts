/**
 * Which methods the app serves on a path, for the 405 of a known path called with another method
 * (`Allow` lists them). Built once from the app's own route table after every router is mounted, so
 * it holds for every path with no per-route code. Only the API's routes count (the field app's page
 * fallback answers GET anywhere outside it); middleware (method ALL) serves no method of its own.
 * HEAD is served wherever GET is (Hono answers it from the GET route).
 */
export type AllowedMethods = (path: string) => string[];

const ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/** A Hono route pattern (`/a/:id`, `/a/:id{[0-9]+}`, `/a/*`) as an anchored regular expression. */
function patternRegExp(pattern: string): RegExp {
  const source = pattern
    .split("/")
    .map((part) => {
      if (part === "*") return ".*";
      const param = /^:[^{]+(?:\{(.+)\})?(\?)?$/.exec(part);
      if (param) return `(?:${param[1] ?? "[^/]+"})${param[2] ?? ""}`;
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return new RegExp(`^${source}/?$`);
}

export function allowedMethods(
  routes: readonly { method: string; path: string }[],
  prefixes: readonly string[],
): AllowedMethods {
  const table = routes
    .filter((r) => r.method !== "ALL" && prefixes.some((p) => r.path.startsWith(p)))
    .map((r) => ({ method: r.method.toUpperCase(), re: patternRegExp(r.path) }));
  return (path) => {
    const methods = new Set(table.filter((r) => r.re.test(path)).map((r) => r.method));
    if (methods.has("GET")) methods.add("HEAD");
    return ORDER.filter((m) => methods.has(m)).concat([...methods].filter((m) => !ORDER.includes(m)).sort());
  };
}
