import { Head, type PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/** The not-found page, in the visitor's language, answered with status 404. */
export default function NotFound({ state }: PageProps<unknown, AppState>) {
  const { t, lang } = state;
  return (
    <section class="not-found">
      <Head title={t("notFound.title")} />
      <h1>{t("notFound.title")}</h1>
      <p>{t("notFound.message")}</p>
      <a class="button" href={`/${lang}`}>{t("notFound.goHome")}</a>
    </section>
  );
}
