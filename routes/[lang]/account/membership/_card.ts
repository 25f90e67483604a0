/**
 * The member card downloads of the donor portal (`card.pdf.ts`, `card.png.ts`, `wallet.pkpass.ts`):
 * the card of cardholder `?holder=N` (1 for the first, the default) of the membership the session
 * reaches, drawn now by the card workers, or as an Apple Wallet pass (404 when the museum has set no
 * pass certificates); any session reaching the address may (`lib/donor_portal/membership.ts`).
 *
 * @module
 */
import { sessionMembership } from "@/lib/donor_portal/mod.ts";
import { currentSession } from "@/lib/donor_portal/sign_in.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { errorAnswer } from "@/lib/http/domain_errors.ts";
import { readSessionCookie } from "@/lib/http/donor_cookie.ts";
import { memberCardFile, type MemberCardFormat } from "@/lib/memberships/mod.ts";
import type { AppState } from "@/lib/app/state.ts";
import { seeOther } from "@/routes/[lang]/account/_access.ts";

/** The GET handler of the card in `format`. */
export function cardDownload(format: MemberCardFormat): Handlers<unknown, AppState> {
  return {
    async GET(req, ctx) {
      const { services, lang, t } = ctx.state;
      const session = await currentSession(services.store, readSessionCookie(req));
      if (!session) return seeOther(`/${lang}/account`);
      const graceDays = services.config.memberships.graceDays;
      const membership = await sessionMembership({ store: services.store, graceDays }, session);
      const holder = Number(ctx.url.searchParams.get("holder") ?? "1");
      const notFound = () =>
        new Response(t("portalMembership.none"), {
          status: 404,
          headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
        });
      if (!membership || !Number.isInteger(holder) || holder < 1 || holder > 10) return notFound();
      try {
        const file = await memberCardFile(
          {
            store: services.store,
            appSecret: services.config.appSecret,
            render: services.memberCards.render,
            graceDays,
            wallet: services.config.wallet,
          },
          membership.membership,
          holder - 1,
          lang,
          format,
        );
        if (!file) return notFound();
        return new Response(file.content as Uint8Array<ArrayBuffer>, {
          headers: {
            "content-type": file.contentType,
            "content-disposition": `${
              format === "png" ? "inline" : "attachment"
            }; filename="${file.filename}"`,
            // The card carries a signed token and a name: kept by nobody but the donor's browser.
            "cache-control": "private, no-store",
            "x-robots-tag": "noindex",
          },
        });
      } catch (e) {
        const answer = errorAnswer(e);
        if (!answer) throw e;
        return new Response(answer.message, {
          status: answer.status,
          headers: {
            "content-type": "text/plain; charset=utf-8",
            "cache-control": "no-store",
            ...answer.headers,
          },
        });
      }
    },
  };
}
