import { KioskPairForm } from "@/components/KioskPages.tsx";
import { PageTitle } from "@/components/PageTitle.tsx";
import type { Handlers, PageProps } from "@/lib/framework/mod.ts";
import { deviceCookie, readDeviceCookie } from "@/lib/http/kiosk_cookie.ts";
import { pairedDevice, pairKiosk } from "@/lib/kiosk/devices.ts";
import { PairingCodeError } from "@/lib/kiosk/errors.ts";
import type { AppState } from "@/lib/app/state.ts";

interface Data {
  code: string;
  error: boolean;
  paired: { name: string; shopNumber: string } | null;
}

/**
 * `/{lang}/kiosk-pair`: staff pair a kiosk with the one-time code an admin created in the back
 * office. The pairing link carries the code (`?code=`) and GET only shows it in the form, so a
 * link preview or a prefetch cannot use the code up; the form's POST (same-origin, checked by
 * `_middleware.ts`; no JavaScript needed) pairs, sets the device cookie and sends the kiosk to its
 * shop's kiosk page. A wrong, used or expired code is shown in place (400).
 */
export const handler: Handlers<Data, AppState> = {
  async GET(req, ctx) {
    const code = (ctx.url.searchParams.get("code") ?? "").slice(0, 64);
    return ctx.render({ code, error: false, paired: await pairedAs(req, ctx.state) });
  },
  async POST(req, ctx) {
    const { services, lang } = ctx.state;
    let code = "";
    try {
      const value = (await req.formData()).get("code");
      code = typeof value === "string" ? value.slice(0, 64) : "";
    } catch { /* an unreadable form is a missing code */ }
    try {
      const { device, credential } = await pairKiosk(services.store, code);
      ctx.state.log.info("kiosk paired", { deviceId: device.id, shop: device.shopNumber });
      return new Response(null, {
        status: 303,
        headers: {
          location: `/${lang}/terminal-payment/${encodeURIComponent(device.shopNumber)}`,
          "set-cookie": deviceCookie(credential, services.config),
          "cache-control": "no-store",
        },
      });
    } catch (e) {
      if (!(e instanceof PairingCodeError)) throw e;
      ctx.state.log.warn("kiosk pairing refused", { reason: "code" });
      return ctx.render({ code, error: true, paired: await pairedAs(req, ctx.state) }, { status: 400 });
    }
  },
};

/** The device this browser is paired as, if any (and not revoked). */
async function pairedAs(req: Request, state: AppState): Promise<Data["paired"]> {
  const device = await pairedDevice(state.services.store, readDeviceCookie(req));
  return device && { name: device.name, shopNumber: device.shopNumber };
}

/** The pairing page. */
export default function Page({ state, data }: PageProps<Data, AppState>) {
  const { t, lang } = state;
  return (
    <>
      <PageTitle title={t("kiosk.pairTitle")} siteName={t("meta.siteName")} />
      <KioskPairForm t={t} lang={lang} code={data.code} error={data.error} paired={data.paired} />
    </>
  );
}
