import { ApiReference } from "@/components/ApiReference.tsx";
import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

type Doc = Record<string, unknown>;

/** Reads the app's document (`lib/app/api_docs.ts`, the one `/api/openapi.json` answers) for the page. */
export const handler: Handlers<Doc, AppState> = {
  async GET(_req, ctx) {
    return ctx.render(await ctx.state.apiDocs.document());
  },
};

/** `GET /api/docs`: the API reference as a page, from the same document as `/api/openapi.json`. */
export default function ApiDocs({ data: doc }: PageProps<Doc>) {
  return (
    <main id="main">
      <Head title={String((doc.info as { title: string }).title)} />
      <ApiReference doc={doc} />
    </main>
  );
}
