import { PageTitle } from "@/components/PageTitle.tsx";
import { autoRenewSentence } from "@/components/AutoRenewStatus.tsx";
import type { AppState } from "@/lib/app/state.ts";
import { type Handlers, Head, type PageProps, type RouteContext } from "@/lib/framework/mod.ts";
import {
  autoRenewOffKey,
  membershipDate,
  type NextAutoRenewal,
  nextAutoRenewal,
  readAutoRenewOffToken,
  turnOffAutoRenew,
} from "@/lib/memberships/mod.ts";
import { isLang } from "@/lib/shared/languages.ts";
import type { Membership } from "@/lib/storage/types.ts";

/** What the page shows. */
type Data =
  | { kind: "invalid" }
  | { kind: "on"; token: string; number: string; next: NextAutoRenewal }
  | { kind: "off"; number: string; validUntil: string; justNow: boolean };

const headers = { "cache-control": "no-store", "referrer-policy": "no-referrer" };

/** The membership a token names, or null (not ours, expired, or no such membership any more). */
async function named(ctx: RouteContext<Data, AppState>, token: string): Promise<Membership | null> {
  const { services } = ctx.state;
  const claim = await readAutoRenewOffToken(await autoRenewOffKey(services.config.appSecret), token);
  if (!claim) return null;
  const membership = await services.store.memberships.get(claim.email);
  return membership?.number === claim.number ? membership : null;
}

/**
 * `/{lang}/membership/auto-renew?t=<token>`: the notice email's one-click turn-off link (issue 27,
 * `lib/memberships/auto_renew.ts`). The token names one membership and opens this page only (no
 * session, no other page). `GET` shows the next charge and one button and changes nothing (a mail
 * scanner following the link turns nothing off); the button's `POST` (a plain form, the token in it)
 * turns auto-renewal off and drops the kept card. A token that is not ours, changed or expired: 400
 * and a pointer to the portal.
 */
export const handler: Handlers<Data, AppState> = {
  async GET(_req, ctx) {
    const token = ctx.url.searchParams.get("t") ?? "";
    const membership = await named(ctx, token);
    if (!membership) return ctx.render({ kind: "invalid" }, { status: 400, headers });
    const next = await nextAutoRenewal(ctx.state.services.store, membership);
    return ctx.render(
      next
        ? { kind: "on", token, number: membership.number, next }
        : { kind: "off", number: membership.number, validUntil: membership.end, justNow: false },
      { headers },
    );
  },
  async POST(req, ctx) {
    let token = "";
    try {
      token = String((await req.formData()).get("t") ?? "");
    } catch {
      // An unreadable form names no membership: refused below.
    }
    const membership = await named(ctx, token);
    if (!membership) return ctx.render({ kind: "invalid" }, { status: 400, headers });
    const stored = await turnOffAutoRenew(ctx.state.services.store, membership.email, {
      number: membership.number,
    });
    if (membership.autoRenew) ctx.state.log.info("membership auto-renewal turned off", { via: "email link" });
    return ctx.render(
      { kind: "off", number: membership.number, validUntil: (stored ?? membership).end, justNow: true },
      { headers },
    );
  },
};

/** The turn-off page. */
export default function AutoRenewOffPage({ state, data }: PageProps<Data, AppState>) {
  const { t, lang } = state;
  const l = isLang(lang) ? lang : "en";
  return (
    <>
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <PageTitle title={t("membershipAutoRenew.offPage.title")} siteName={t("meta.siteName")} />
      <section class="user-info auto-renew-page">
        {data.kind === "invalid" && (
          <>
            <p class="form-alert" role="alert">{t("membershipAutoRenew.offPage.invalid")}</p>
            <p>
              <a href={`/${lang}/account`}>{t("portalMembership.title")}</a>
            </p>
          </>
        )}
        {data.kind === "on" && (
          <form method="post" action={`/${lang}/membership/auto-renew`}>
            <dl class="details-list">
              <dt>{t("portalMembership.number")}</dt>
              <dd>
                <bdi dir="ltr">{data.number}</bdi>
              </dd>
            </dl>
            <p>{autoRenewSentence(t, lang, data.next)}</p>
            <input type="hidden" name="t" value={data.token} />
            <p>
              <button type="submit" class="button button-primary">
                {t("membershipAutoRenew.offPage.button")}
              </button>
            </p>
          </form>
        )}
        {data.kind === "off" && (
          <p class={data.justNow ? "notice-success" : undefined} role="status">
            {t(data.justNow ? "membershipAutoRenew.offPage.done" : "membershipAutoRenew.offPage.alreadyOff", {
              number: data.number,
              date: membershipDate(data.validUntil, l),
            })}
          </p>
        )}
      </section>
    </>
  );
}
