import type { Handlers } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";
import { readMuseumSettingsForPages } from "@/lib/museum/mod.ts";
import { museumStylesheet } from "@/lib/museum/theme.ts";

/**
 * `GET /museum.css?v={version}`: the museum's brand colours as CSS custom properties over the
 * stylesheet's (issue 27), linked from the head of every page once an owner has set them
 * (`museumStylesheetHref`). A file, not an inline `<style>`: the CSP allows styles from the site only.
 * The version in the address makes it immutable; another version (a page a second behind) is
 * answered the current colours, not cached.
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const read = readMuseumSettingsForPages(ctx.state.services.store);
    const settings = read instanceof Promise ? await read : read;
    const current = ctx.url.searchParams.get("v") === String(settings.version);
    return new Response(museumStylesheet(settings), {
      headers: {
        "content-type": "text/css; charset=utf-8",
        "cache-control": current ? "public, max-age=31536000, immutable" : "no-cache",
      },
    });
  },
};
