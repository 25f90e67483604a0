import { ApiReference } from "../../components/ApiReference.tsx";
import manifest from "../../manifest.gen.ts";
import { Head, type PageProps } from "../../lib/framework/mod.ts";
import { buildOpenApi } from "../../lib/openapi.ts";

/** `GET /api/docs`: the API reference as a page, from the same document as `/api/openapi.json`. */
export default function ApiDocs(_props: PageProps) {
  const doc = buildOpenApi(manifest);
  return (
    <main id="main">
      <Head title={String((doc.info as { title: string }).title)} />
      <ApiReference doc={doc} />
    </main>
  );
}
