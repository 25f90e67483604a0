import { Hero } from "../../components/Hero.tsx";
import { Head, type PageProps } from "../../lib/framework/mod.ts";
import type { AppState } from "../../lib/state.ts";

/** The donation page: the welcome hero, then the contribution and payment section. */
export default function DonationPage({ state }: PageProps<unknown, AppState>) {
  const { t, services } = state;
  return (
    <>
      <Head title={t("meta.siteName")} />
      <Hero t={t} videoUrl={services.config.welcomeVideoUrl} />
      <section id="donate" class="donate" tabIndex={-1} aria-labelledby="donate-title">
        <h2 id="donate-title">{t("donation.sectionTitle")}</h2>
        <p>{t("footer.taxNote")}</p>
      </section>
    </>
  );
}
