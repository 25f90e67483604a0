/**
 * The ceiling of `bench/ssr.ts`: a bare `Deno.serve`, in a process of its own, answering captured
 * responses from memory. Nothing of the app runs here (no Hono, no middleware, no logging), so the
 * app's requests per second divided by this server's are what the whole request pipeline and the
 * page leave of what this machine's HTTP stack can do.
 *
 * Reads a JSON file named by `BARE_PAGES`: `{ "<path>": { "body": "<base64>", "headers": {…} } }`,
 * and listens on `BARE_PORT` (127.0.0.1). An unknown path answers 404.
 *
 * @module
 */
const pages = new Map<string, { body: Uint8Array<ArrayBuffer>; headers: Record<string, string> }>();
const file = JSON.parse(await Deno.readTextFile(Deno.env.get("BARE_PAGES")!)) as Record<
  string,
  { body: string; headers: Record<string, string> }
>;
for (const [path, page] of Object.entries(file)) {
  pages.set(path, { body: Uint8Array.from(atob(page.body), (c) => c.charCodeAt(0)), headers: page.headers });
}

// The path without parsing a URL object: `http://host:port/en/` → `/en/`.
const pathOf = (url: string) => url.slice(url.indexOf("/", url.indexOf("//") + 2));

Deno.serve({ hostname: "127.0.0.1", port: Number(Deno.env.get("BARE_PORT")), onListen: () => {} }, (req) => {
  const page = pages.get(pathOf(req.url));
  return page
    ? new Response(page.body, { headers: page.headers })
    : new Response("Not found", { status: 404 });
});
