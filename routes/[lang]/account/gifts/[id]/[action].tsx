import { DonorHistoryView, SignedIn } from "@/components/DonorPortal.tsx";
import { mailAddress } from "@/lib/outbox/config.ts";
import {
  applyGiftForm,
  giftErrorNotice,
  type GiftNotice,
  isGiftAction,
} from "@/lib/donor_portal/gift_actions.ts";
import { giftRef, sessionHistory, stepUpPath } from "@/lib/donor_portal/access.ts";
import type { DonorHistory } from "@/lib/donor_portal/history.ts";
import { currentSession } from "@/lib/donor_portal/sign_in.ts";
import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import { readSessionCookie } from "@/lib/http/donor_cookie.ts";
import { errorAnswer } from "@/lib/http/domain_errors.ts";
import { RaiseNeedsSignInError } from "@/lib/monthly_gifts/subscription_changes.ts";
import type { AppState } from "@/lib/app/state.ts";
import { seeOther } from "@/routes/[lang]/account/_access.ts";

/** The account page again, with the refusal of the form just sent. */
interface Data {
  email: string;
  history: DonorHistory;
  notice: GiftNotice;
}

/**
 * `POST /{lang}/account/gifts/{id}/{action}`: one form of a monthly gift on the donor portal
 * (`amount`, `pause`, `skip`, `resume`, `cancel`; `lib/donor_portal/gift_actions.ts`), plain form posts
 * that work without JavaScript. Same-origin only (`routes/[lang]/_middleware.ts` refuses a
 * cross-site POST with 403 before it gets here). Without a valid session: a redirect to the sign-in
 * form. A manage link's session (or a full sign-in older than an hour) acts on its gifts only and
 * may not raise an amount: that goes to the step-up page (303, `lib/donor_portal/access.ts`). Done (or
 * already so: every change is idempotent): a redirect (303) to
 * `/{lang}/account?done=<action>`, which confirms it; the confirmation email was enqueued with the
 * change. Refused: the account page again with the translated reason beside the gift's forms, with
 * the status `lib/http/domain_errors.ts` gives (400 bad input, 404 not one of the donor's gifts,
 * 409 ended or being charged right now). GET (a reload, a typed address) goes to the account page.
 */
export const handler: Handlers<Data, AppState> = {
  GET(_req, ctx) {
    return seeOther(`/${ctx.state.lang}/account`);
  },
  async POST(req, ctx) {
    const { services, lang, log } = ctx.state;
    const action = ctx.params.action;
    if (!isGiftAction(action)) {
      await req.body?.cancel();
      return ctx.renderNotFound();
    }
    const session = await currentSession(services.store, readSessionCookie(req));
    if (!session) {
      await req.body?.cancel();
      return seeOther(`/${lang}/account`);
    }
    // The body is bounded by the app's body limit (`lib/http/pipeline.ts`, 413 beyond it).
    const form = new URLSearchParams(req.body ? await req.text() : "");
    const giftId = ctx.params.id;
    const maxAmount = services.config.payments.maxAmount;
    try {
      const result = await applyGiftForm(
        { store: services.store, maxAmount },
        giftRef(session, giftId),
        action,
        form,
      );
      log.info("monthly gift changed by its donor", { action, changed: result.changed });
      return seeOther(`/${lang}/account?done=${action}`);
    } catch (e) {
      if (e instanceof RaiseNeedsSignInError) return seeOther(stepUpPath(lang, "amount"));
      const notice = giftErrorNotice(e, action, giftId, maxAmount);
      const answer = errorAnswer(e);
      if (!notice || !answer) throw e;
      log.info("monthly gift change refused", {
        action,
        status: answer.status,
        reason: notice.kind === "error" ? notice.key : "",
      });
      const history = await sessionHistory(services.store, services.config.appSecret, session, lang);
      return ctx.render({ email: session.email, history, notice }, {
        status: answer.status,
        headers: { "cache-control": "no-store" },
      });
    }
  },
};

/** The account page, answering a refused form. */
export default function GiftActionPage({ state, data }: PageProps<Data, AppState>) {
  const { t, lang } = state;
  return (
    <>
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <SignedIn t={t} lang={lang} email={data.email}>
        <DonorHistoryView
          t={t}
          lang={lang}
          history={data.history}
          notice={data.notice}
          contact={mailAddress(state.services.config.mail.from)}
        />
      </SignedIn>
    </>
  );
}
