import { type DonationData, DonationSection, EmptyTerminal } from "@/components/DonationSection.tsx";
import { PageTitle } from "@/components/PageTitle.tsx";
import { donationPage, handleDonationPost } from "../_donation_page.ts";
import type { Handlers, PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/state.ts";

const SHOP = /^[A-Za-z0-9_-]{1,32}$/;

/** The shop number of the path, when well-formed. */
function shopOf(params: Record<string, string>): string | null {
  const shop = params.shopNumber;
  return shop && SHOP.test(shop) ? shop : null;
}

/**
 * `/{lang}/terminal-payment/{shop}`: the donation page in kiosk mode. Without a (well-formed)
 * shop number the page asks for one in the address instead of showing the contribution section.
 */
export const handler: Handlers<DonationData | null, AppState> = {
  GET(_req, ctx) {
    const shop = shopOf(ctx.params);
    if (!shop) return ctx.render(null);
    return donationPage(ctx as Parameters<typeof donationPage>[0], "terminal", shop);
  },
  POST(req, ctx) {
    const shop = shopOf(ctx.params);
    if (!shop) return ctx.render(null, { status: 404 });
    return handleDonationPost(req, ctx as Parameters<typeof handleDonationPost>[1], "terminal", shop);
  },
};

/** The donation page in terminal (kiosk) mode for one shop. */
export default function Page({ state, data, url }: PageProps<DonationData | null, AppState>) {
  const { t, lang } = state;
  return (
    <>
      <PageTitle title={t("pages.terminalPayment")} siteName={t("meta.siteName")} />
      {data
        ? <DonationSection t={t} lang={lang} url={url} data={data} />
        : <EmptyTerminal t={t} lang={lang} />}
    </>
  );
}
