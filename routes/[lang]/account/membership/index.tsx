import { type MembershipNotice, MembershipView } from "@/components/DonorMembership.tsx";
import { SignedIn } from "@/components/DonorPortal.tsx";
import { steppedUp } from "@/lib/donor_portal/access.ts";
import {
  cardholdersOfForm,
  changeCardholders,
  InvalidCardholdersError,
  type PortalMembership,
  sessionMembership,
} from "@/lib/donor_portal/mod.ts";
import { currentSession } from "@/lib/donor_portal/sign_in.ts";
import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import { readSessionCookie } from "@/lib/http/donor_cookie.ts";
import {
  cardholderNames,
  type NextAutoRenewal,
  nextAutoRenewal,
  turnOffAutoRenew,
} from "@/lib/memberships/mod.ts";
import type { AppState } from "@/lib/app/state.ts";
import { formOf, seeOther, steppedUpSession } from "@/routes/[lang]/account/_access.ts";

interface Data {
  email: string;
  membership: PortalMembership | null;
  names: string[];
  mayName: boolean;
  notice: MembershipNotice;
  /** Whether the cards come as Apple Wallet passes too (`config.wallet`). */
  wallet: boolean;
  /** The next automatic renewal charge, null while it is off. */
  autoRenew: NextAutoRenewal | null;
}

const noStore = { "cache-control": "no-store" };

/**
 * `/{lang}/account/membership`: the donor's membership (issue 27, `lib/donor_portal/membership.ts`):
 * level, state, valid-until date, number, a card per cardholder (PDF and picture: `card.pdf.ts`,
 * `card.png.ts`; an Apple Wallet pass when configured: `wallet.pkpass.ts`), "renew now", and for a level covering more than one person the cardholders' form.
 * Any session reaching the address sees it (signed out: the sign-in form). `POST` (the form, no
 * JavaScript needed) stores the names, after a fresh full sign-in (step-up `cardholders`); names no
 * card may carry: 400 and the page saying so; `?saved=1` after a save. The automatic renewal panel
 * (issue 27, item 7) shows it on (card, amount, next charge date) or off; its form (`turn=off`, any
 * session reaching the membership: turning off only stops a charge) turns it off and drops the kept
 * card, then `?autorenew=off`; turning it on is a fresh payment with the consent ticked (the
 * donation page at the level, `&autoRenew=1`).
 */
export const handler: Handlers<Data, AppState> = {
  async GET(req, ctx) {
    const { services, lang } = ctx.state;
    const session = await currentSession(services.store, readSessionCookie(req));
    if (!session) return seeOther(`/${lang}/account`);
    const membership = await sessionMembership(
      { store: services.store, graceDays: services.config.memberships.graceDays },
      session,
    );
    const names = membership ? await cardholderNames(services.store, membership.membership) : [];
    const query = ctx.url.searchParams;
    const notice = query.get("saved") === "1"
      ? "saved"
      : query.get("autorenew") === "off"
      ? "autoRenewOff"
      : null;
    const autoRenew = membership ? await nextAutoRenewal(services.store, membership.membership) : null;
    const wallet = services.config.wallet !== null;
    return ctx.render(
      { email: session.email, membership, names, mayName: steppedUp(session), notice, autoRenew, wallet },
      { headers: noStore },
    );
  },
  async POST(req, ctx) {
    const { services, lang } = ctx.state;
    const form = await formOf(req);
    if (form.get("turn") === "off") {
      const session = await currentSession(services.store, readSessionCookie(req));
      if (!session) return seeOther(`/${lang}/account`);
      const reached = await sessionMembership({ store: services.store }, session);
      if (reached?.membership.autoRenew) {
        await turnOffAutoRenew(services.store, session.email);
        ctx.state.log.info("membership auto-renewal turned off", { via: "portal" });
      }
      return seeOther(`/${lang}/account/membership?autorenew=off`);
    }
    const session = await steppedUpSession(req, ctx.state, "cardholders");
    if (session instanceof Response) return session;
    const membership = await sessionMembership(
      { store: services.store, graceDays: services.config.memberships.graceDays },
      session,
    );
    if (!membership) return seeOther(`/${lang}/account/membership`);
    try {
      const names = cardholdersOfForm(form, membership.level?.cardholders ?? 1);
      await changeCardholders(services.store, session.email, names);
      ctx.state.log.info("cardholders named", { count: names.length });
      return seeOther(`/${lang}/account/membership?saved=1`);
    } catch (e) {
      if (!(e instanceof InvalidCardholdersError)) throw e;
      const names = await cardholderNames(services.store, membership.membership);
      const autoRenew = await nextAutoRenewal(services.store, membership.membership);
      const wallet = services.config.wallet !== null;
      return ctx.render({
        email: session.email,
        membership,
        names,
        mayName: true,
        notice: "invalid",
        autoRenew,
        wallet,
      }, {
        status: 400,
        headers: noStore,
      });
    }
  },
};

/** The membership page. */
export default function MembershipPage({ state, data }: PageProps<Data, AppState>) {
  const { t, lang } = state;
  return (
    <>
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <SignedIn t={t} lang={lang} email={data.email}>
        <MembershipView
          t={t}
          lang={lang}
          membership={data.membership}
          names={data.names}
          mayName={data.mayName}
          notice={data.notice}
          wallet={data.wallet}
          autoRenew={data.autoRenew}
        />
      </SignedIn>
    </>
  );
}
