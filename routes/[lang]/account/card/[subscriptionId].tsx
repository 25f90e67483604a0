import { CardLockNote, CardUpdateNotice } from "@/components/CardUpdate.tsx";
import { DonorHistoryView, SignedIn } from "@/components/DonorPortal.tsx";
import { giftRef, sessionHistory } from "@/lib/donor_portal/access.ts";
import type { DonorHistory } from "@/lib/donor_portal/history.ts";
import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import { errorAnswer } from "@/lib/http/domain_errors.ts";
import { requestAddress } from "@/lib/http/rate_limit.ts";
import { mailAddress } from "@/lib/outbox/config.ts";
import { CardUpdateUnavailableError, startCardUpdate } from "@/lib/monthly_gifts/card_update.ts";
import { CardUpdatesBusyError, CardUpdatesLockedError } from "@/lib/monthly_gifts/card_update_limits.ts";
import { paymentsContext } from "@/lib/app/payments.ts";
import { ProviderError } from "@/lib/providers/provider.ts";
import { GiftEndedError, NoSuchGiftError } from "@/lib/monthly_gifts/subscription_changes.ts";
import { RateLimitedError } from "@/lib/rate_limits/rate_limits.ts";
import type { AppState } from "@/lib/app/state.ts";
import { seeOther, steppedUpSession } from "@/routes/[lang]/account/_access.ts";

/** The account page again, with why the card update could not start. */
interface Data {
  email: string;
  history: DonorHistory;
  notice: "notFound" | "ended" | "otherProvider" | "tooMany" | "busy" | "declines" | "locked";
  /** With `tooMany`, `busy` and `declines`: minutes until another card may be tried. */
  minutes?: number;
  /** With `locked`: when the gift's lock ends (ISO 8601). */
  until?: string;
}

const SUBSCRIPTION_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * `POST /{lang}/account/card/{subscriptionId}`: the "Update card" button of a monthly gift on the
 * account page (same-origin, checked by `_middleware.ts`; no JavaScript needed). Signed in and the
 * gift the donor's: starts the provider's page in tokenization mode (`lib/monthly_gifts/card_update.ts`)
 * and sends the browser there (303). Without a valid session: back to the sign-in form; signed in by
 * a manage link or more than an hour ago: the step-up page (`lib/donor_portal/access.ts`). Another
 * donor's or an unknown gift: the account page with a translated error, 404; an ended gift or one
 * of another provider, or one whose card updates are locked after declined cards: 409; past the
 * card-update limits (per gift, session, address, everyone, or the decline caps shared with
 * payments: `lib/monthly_gifts/card_update_limits.ts`): 429 with `Retry-After`, each with its own
 * translated message. The provider not answering: back to the account page saying so. A GET (the
 * address opened as a page) goes to the account page.
 */
export const handler: Handlers<Data, AppState> = {
  // Opened as a page (a reload, a bookmark): the account page, where the button is.
  GET(_req, ctx) {
    return seeOther(`/${ctx.state.lang}/account`);
  },
  async POST(req, ctx) {
    const { services, lang, log } = ctx.state;
    await req.body?.cancel();
    const session = await steppedUpSession(req, ctx.state, "card");
    if (session instanceof Response) return session;
    const back = (query = "") => seeOther(`/${lang}/account${query}`);
    const subscriptionId = ctx.params.subscriptionId;
    const client = { session: session.hash, address: requestAddress(ctx), email: session.email };
    const payments = { ...paymentsContext(services, false, ctx.url, log), client };
    try {
      if (!SUBSCRIPTION_ID.test(subscriptionId)) throw new NoSuchGiftError();
      const { url } = await startCardUpdate(payments, giftRef(session, subscriptionId), lang);
      return new Response(null, { status: 303, headers: { location: url, "cache-control": "no-store" } });
    } catch (e) {
      if (e instanceof ProviderError) {
        log.error("card update: the provider did not start its page", { error: e.message });
        return back("?card=unavailable");
      }
      const answer = errorAnswer(e);
      if (!answer) throw e;
      const notice = e instanceof CardUpdatesBusyError
        ? "busy"
        : e instanceof RateLimitedError
        ? e.reason === "declines" ? "declines" : "tooMany"
        : e instanceof CardUpdatesLockedError
        ? "locked"
        : e instanceof GiftEndedError
        ? "ended"
        : e instanceof CardUpdateUnavailableError
        ? "otherProvider"
        : e instanceof NoSuchGiftError
        ? "notFound"
        : null;
      if (!notice) throw e;
      const history = await sessionHistory(services.store, services.config.appSecret, session, lang);
      const limited = e instanceof RateLimitedError ? e.retryAfterSeconds : null;
      return ctx.render({
        email: session.email,
        history,
        notice,
        minutes: limited === null ? undefined : Math.max(1, Math.ceil(limited / 60)),
        until: e instanceof CardUpdatesLockedError ? e.until : undefined,
      }, {
        status: answer.status,
        headers: {
          "cache-control": "no-store",
          ...(limited === null ? {} : { "retry-after": String(limited) }),
        },
      });
    }
  },
};

/** The account page with the refusal above the donor's gifts. */
export default function CardUpdateRefused({ state, data }: PageProps<Data, AppState>) {
  const { t, lang } = state;
  const contact = mailAddress(state.services.config.mail.from);
  return (
    <>
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <SignedIn t={t} lang={lang} email={data.email}>
        {data.notice === "locked" && data.until
          ? <CardLockNote t={t} lang={lang} until={data.until} contact={contact} alert />
          : (
            <CardUpdateNotice
              t={t}
              notice={data.notice === "locked" ? null : data.notice}
              minutes={data.minutes}
            />
          )}
        <DonorHistoryView t={t} lang={lang} history={data.history} contact={contact} />
      </SignedIn>
    </>
  );
}
