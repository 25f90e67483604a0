import { type DonationData, DonationSection } from "@/components/DonationSection.tsx";
import { Hero } from "@/components/Hero.tsx";
import { museumName } from "@/components/Header.tsx";
import { donationPage, handleDonationPost } from "./_donation_page.ts";
import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/`: GET answers the page (cached HTML, with a fresh browser signing key and nonce per
 * response); POST is the form without JavaScript, always rendered (see `_donation_page.ts`).
 */
export const handler: Handlers<DonationData, AppState> = {
  GET(_req, ctx) {
    return donationPage(ctx, "online", null);
  },
  POST(req, ctx) {
    return handleDonationPost(req, ctx, "online", null);
  },
};

/** The donation page: the welcome hero, then the contribution and payment sections. */
export default function DonationPage({ state, data, url }: PageProps<DonationData, AppState>) {
  const { t, services, lang, museum } = state;
  return (
    <>
      <Head title={t("meta.siteName")} />
      <Hero
        t={t}
        lang={lang}
        museum={museum}
        museumName={museumName(museum, lang, t)}
        videoUrl={services.config.welcomeVideoUrl}
      />
      <DonationSection t={t} lang={lang} url={url} data={data} />
    </>
  );
}
