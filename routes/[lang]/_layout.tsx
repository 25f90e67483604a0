import { Header } from "@/components/Header.tsx";
import type { LayoutProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";
import InitPaymentListener from "@/islands/InitPaymentListener.tsx";
import ScrollToTop from "@/islands/ScrollToTop.tsx";

/** The public shell around every `/{lang}/` page: header, main content, scroll-to-top. */
export default function Layout({ Component, state, url }: LayoutProps<AppState>) {
  const { t } = state;
  return (
    <>
      <a class="skip-link" href="#main">{t("header.skipToContent")}</a>
      <Header state={state} url={url} />
      <main id="main" tabIndex={-1}>
        <Component />
      </main>
      <ScrollToTop label={t("scrollToTop.label")} />
      <InitPaymentListener />
    </>
  );
}
