import { type DonationData, DonationSection, EmptyTerminal } from "@/components/DonationSection.tsx";
import { KioskRefusal } from "@/components/KioskPages.tsx";
import { PageTitle } from "@/components/PageTitle.tsx";
import { donationPage, handleDonationPost } from "@/routes/[lang]/_donation_page.ts";
import type { Handlers, PageProps } from "@/lib/framework/mod.ts";
import { kioskPageRefusal, requireKioskDevice } from "@/lib/http/kiosk_cookie.ts";
import { type DeviceRefusal, KioskDeviceRequiredError } from "@/lib/kiosk/errors.ts";
import type { AppState } from "@/lib/app/state.ts";

const SHOP = /^[A-Za-z0-9_-]{1,32}$/;

/** The shop number of the path, when well-formed. */
function shopOf(params: Record<string, string>): string | null {
  const shop = params.shopNumber;
  return shop && SHOP.test(shop) ? shop : null;
}

/**
 * The kiosk page's data: the donation page's, or why this browser may not start a sale (`sale`:
 * a sale was refused; otherwise the page was only opened).
 */
type Data = DonationData | { refusal: DeviceRefusal; shopNumber: string; sale: boolean } | null;

/**
 * `/{lang}/terminal-payment/{shop}`: the donation page in kiosk mode. Without a (well-formed)
 * shop number the page asks for one in the address instead of showing the contribution section.
 * Anyone may open the page (spec section 6), but only a kiosk paired for this shop may start a
 * card sale (or a test payment) there: any other browser is told so as the page opens, with how
 * staff pair it, and is offered no form (a donor would otherwise fill it in for nothing). The
 * form's POST checks again (the device may have been revoked since): a 403 page.
 */
export const handler: Handlers<Data, AppState> = {
  async GET(req, ctx) {
    const shop = shopOf(ctx.params);
    if (!shop) return ctx.render(null);
    const refusal = await kioskPageRefusal(req, ctx.state.services.store, shop);
    if (refusal) {
      return ctx.render({ refusal, shopNumber: shop, sale: false }, {
        headers: { "cache-control": "no-store" },
      });
    }
    return donationPage(ctx as Parameters<typeof donationPage>[0], "terminal", shop);
  },
  async POST(req, ctx) {
    const shop = shopOf(ctx.params);
    if (!shop) return ctx.render(null, { status: 404 });
    const { services, lang, log } = ctx.state;
    try {
      await requireKioskDevice(req, services.store, { shopNumber: shop, lang, log });
    } catch (e) {
      if (!(e instanceof KioskDeviceRequiredError)) throw e;
      return ctx.render({ refusal: e.reason, shopNumber: shop, sale: true }, {
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
      {!data ? <EmptyTerminal t={t} lang={lang} /> : "refusal" in data
        ? (
          <KioskRefusal
            t={t}
            lang={lang}
            reason={data.refusal}
            shopNumber={data.shopNumber}
            sale={data.sale}
          />
        )
        : <DonationSection t={t} lang={lang} url={url} data={data} />}
    </>
  );
}
