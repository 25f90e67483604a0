import { type DonationData, DonationSection, EmptyTerminal } from "@/components/DonationSection.tsx";
import { KioskRefusal } from "@/components/KioskPages.tsx";
import { PageTitle } from "@/components/PageTitle.tsx";
import { donationPage, handleDonationPost } from "../_donation_page.ts";
import type { Handlers, PageProps } from "@/lib/framework/mod.ts";
import { requireKioskDevice } from "@/lib/http/kiosk_cookie.ts";
import { type DeviceRefusal, KioskDeviceRequiredError } from "@/lib/kiosk/errors.ts";
import type { AppState } from "@/lib/state.ts";

const SHOP = /^[A-Za-z0-9_-]{1,32}$/;

/** The shop number of the path, when well-formed. */
function shopOf(params: Record<string, string>): string | null {
  const shop = params.shopNumber;
  return shop && SHOP.test(shop) ? shop : null;
}

/** The kiosk page's data: the donation page's, or why this browser may not start a sale. */
type Data = DonationData | { refusal: DeviceRefusal; shopNumber: string } | null;

/**
 * `/{lang}/terminal-payment/{shop}`: the donation page in kiosk mode. Without a (well-formed)
 * shop number the page asks for one in the address instead of showing the contribution section.
 * Anyone may see the page (spec section 6); its form's POST starts a card sale (or a test
 * payment), which only a kiosk paired for this shop may do: any other browser gets a 403 page
 * telling staff how to pair it.
 */
export const handler: Handlers<Data, AppState> = {
  GET(_req, ctx) {
    const shop = shopOf(ctx.params);
    if (!shop) return ctx.render(null);
    return donationPage(ctx as Parameters<typeof donationPage>[0], "terminal", shop);
  },
  async POST(req, ctx) {
    const shop = shopOf(ctx.params);
    if (!shop) return ctx.render(null, { status: 404 });
    try {
      await requireKioskDevice(req, ctx.state.services.store, shop);
    } catch (e) {
      if (!(e instanceof KioskDeviceRequiredError)) throw e;
      ctx.state.log.warn("terminal sale refused", { reason: e.reason, shop });
      return ctx.render({ refusal: e.reason, shopNumber: shop }, {
        status: 403,
        headers: { "cache-control": "no-store" },
      });
    }
    return await handleDonationPost(req, ctx as Parameters<typeof handleDonationPost>[1], "terminal", shop);
  },
};

/** The donation page in terminal (kiosk) mode for one shop. */
export default function Page({ state, data, url }: PageProps<Data, AppState>) {
  const { t, lang } = state;
  return (
    <>
      <PageTitle title={t("pages.terminalPayment")} siteName={t("meta.siteName")} />
      {!data
        ? <EmptyTerminal t={t} lang={lang} />
        : "refusal" in data
        ? <KioskRefusal t={t} lang={lang} reason={data.refusal} shopNumber={data.shopNumber} />
        : <DonationSection t={t} lang={lang} url={url} data={data} />}
    </>
  );
}
