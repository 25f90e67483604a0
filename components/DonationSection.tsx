import ContributionChoice, { type TierCard } from "@/islands/ContributionChoice.tsx";
import DonorPayment, { type DonorPaymentProps } from "@/islands/DonorPayment.tsx";
import { GiftMembershipFields, type GiftPart } from "./GiftMembershipFields.tsx";
import type { DonorFields, Selection } from "@/lib/shared/donation.ts";
import type { TaxReceiptFields } from "@/lib/shared/israeli_id.ts";
import type { TFunction } from "@/lib/core/i18n.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import { type MembershipLevel, tiersOf } from "@/lib/shared/museum.ts";
import type { BrowserKey } from "@/lib/signing/signature_check.ts";

/** What the donation page renders from (GET, or a no-JavaScript POST). */
export interface DonationData {
  mode: "online" | "terminal";
  shopNumber: string | null;
  signingKey: BrowserKey;
  /** The museum's membership levels: the tier cards, in order. */
  levels: MembershipLevel[];
  selection: Selection;
  fields: DonorFields;
  /** The tax-receipt box and the Israeli ID number as entered. */
  taxReceipt: TaxReceiptFields;
  /** The gift membership part (issue 28): its box, fields and problems; online only. */
  gift: GiftPart;
  /** Locale keys of the fields' problems, the tax-receipt part's included. */
  errors: Partial<Record<keyof DonorFields | keyof TaxReceiptFields, string>>;
  alert: string | null;
  /** A word above the choice (a renewal link's: a status, or an alert when the link is bad). */
  notice: { kind: "status" | "alert"; text: string } | null;
  paymentUrl: string | null;
  monthlyEnabled: boolean;
  testTerminals: string[];
  provider: string;
  terminalDeadlineMs: number;
}

/** The locale keys the payment island shows. */
const ISLAND_KEYS = [
  "membershipAutoRenew.consent.label",
  "membershipAutoRenew.consent.help",
  "form.firstName",
  "form.lastName",
  "form.email",
  "form.country",
  "form.enterFirstName",
  "form.enterLastName",
  "form.enterEmail",
  "form.invalidEmail",
  "form.enterCountry",
  "taxReceipt.wantReceipt",
  "taxReceipt.hint",
  "taxReceipt.idLabel",
  "taxReceipt.enterId",
  "taxReceipt.idFormat",
  "taxReceipt.idCheckDigit",
  "taxReceipt.onlyShekels",
  "form.selectMembership",
  "form.donate",
  "form.donateNoAmount",
  "form.period.oneTime",
  "form.period.monthly",
  "form.currency.nis",
  "form.currency.dollars",
  "payment.incorrectAmount",
  "payment.networkError",
  "payment.errorPrefix",
  "payment.defaultError",
  "payment.serviceUnavailable",
  "payment.processing",
  "payment.frameTitle",
  "payment.deadline",
  "payment.close",
  "payment.success",
  "payment.levelChanged",
  "payment.levelNotMonthly",
  "rateLimit.tooMany",
  "giftMembership.levelOnly",
  "giftMembership.errors.name",
  "giftMembership.errors.email",
  "giftMembership.errors.date",
  "giftMembership.errors.message",
  "giftMembership.errors.reminders",
  "giftMembership.errors.language",
];
const TERMINAL_KEYS = [
  "terminal.payAtTerminal",
  "terminal.attachCard",
  "terminal.waitingForCard",
  "terminal.processing",
  "terminal.testTerminals",
  "terminal.testTerminal",
  // A sale refused for want of a paired kiosk (issue 13), said in the page's language.
  "kiosk.refused.not-paired",
  "kiosk.refused.revoked",
  "kiosk.refused.wrong-shop",
  "kiosk.pairHint",
  "kiosk.pairLink",
  // Another sale, or this one, already waiting at the terminal.
  "kiosk.terminalRefused.busy",
  "kiosk.terminalRefused.in-use",
];

/**
 * The terminal deadline in the page's language, from the one configured deadline (the same in
 * every language): whole minutes when it is a whole number of minutes, else seconds, written by
 * `Intl` so the number agrees with its unit in every language.
 */
export function terminalDeadlineText(t: TFunction, lang: string, ms: number): string {
  const seconds = Math.round(ms / 1000);
  const [value, unit] = seconds % 60 === 0 ? [seconds / 60, "minute"] : [seconds, "second"];
  const duration = new Intl.NumberFormat(lang, { style: "unit", unit, unitDisplay: "long" }).format(value);
  return t("terminal.deadline", { duration });
}

/**
 * The contribution section and the personal-details and payment section, as one form that posts
 * to the page itself (so it works without JavaScript); islands enhance its parts.
 */
export function DonationSection(props: { t: TFunction; lang: string; url: URL; data: DonationData }) {
  const { t, lang, data } = props;
  const pageHref = props.url.pathname;
  const whole = (minor: number, currency: 1 | 2) =>
    formatMoney(minor, currency, lang).replace(/[.,]00(?=\D*$)/, "");
  const tiers: TierCard[] = data.levels.map((level) => ({
    id: level.id,
    name: level.name[lang as keyof MembershipLevel["name"]] ?? level.name.en,
    dollars: whole(level.price.dollars, 2),
    nis: whole(level.price.nis, 1),
    benefits: level.benefits[lang as keyof MembershipLevel["benefits"]] ?? level.benefits.en,
    monthly: level.monthly,
  }));
  const keys = data.mode === "terminal" ? [...ISLAND_KEYS, ...TERMINAL_KEYS] : ISLAND_KEYS;
  const texts: Record<string, string> = Object.fromEntries(keys.map((k) => [k, t(k)]));
  if (data.mode === "terminal") {
    texts["terminal.deadline"] = terminalDeadlineText(t, lang, data.terminalDeadlineMs);
  }
  const payment: DonorPaymentProps = {
    lang,
    mode: data.mode,
    shopNumber: data.shopNumber,
    provider: data.provider,
    initial: data.selection,
    fields: data.fields,
    taxReceipt: data.taxReceipt,
    errors: data.errors,
    alert: data.alert,
    paymentUrl: data.paymentUrl,
    signingKey: data.signingKey,
    tiers: tiersOf(data.levels),
    testTerminals: data.testTerminals,
    pageHref,
    texts,
  };
  return (
    <form
      method="post"
      action={`${pageHref}#payment`}
      class={data.mode === "terminal" ? "donation-form kiosk" : "donation-form"}
      noValidate
    >
      <section id="donate" class="donate" tabIndex={-1} aria-labelledby="donate-title">
        <h2 id="donate-title">{t("donation.sectionTitle")}</h2>
        <p class="donate-subtitle">{t("donation.subtitle")}</p>
        {data.notice && (
          <p
            class={data.notice.kind === "status" ? "notice-success" : "form-alert"}
            role={data.notice.kind}
          >
            {data.notice.text}
          </p>
        )}
        {!data.monthlyEnabled && <input type="hidden" name="period" value="one-time" />}
        <ContributionChoice
          initial={data.selection}
          periods={data.monthlyEnabled
            ? {
              legend: t("donation.periodLegend"),
              oneTime: t("donation.oneTime"),
              monthly: t("donation.monthly"),
            }
            : null}
          tiers={tiers}
          paymentHref="#payment"
          texts={{
            legend: t("donation.choiceLegend"),
            other: t("donation.otherAmount"),
            amount: t("donation.amount"),
            currency: t("donation.currency"),
            dollars: t("donation.dollars"),
            nis: t("donation.nis"),
            goToDonate: t("donation.goToDonate"),
          }}
        />
        {data.mode === "online" && <GiftMembershipFields t={t} part={data.gift} />}
        <p class="tax-note">{t("donation.taxNote")}</p>
      </section>
      <section id="payment" class="payment" aria-labelledby="payment-title">
        <h2 id="payment-title" tabIndex={-1}>{t("form.personalDetails")}</h2>
        <DonorPayment {...payment} />
      </section>
      {
        /* The honeypot (HONEYPOT_FIELD of routes/[lang]/_donation_page.ts): off-screen, out of the tab
          order and hidden from screen readers, so only a robot fills it in. */
      }
      <div class="hp-field" aria-hidden="true">
        <label for="donor-website">{t("rateLimit.honeypotLabel")}</label>
        <input id="donor-website" name="website" type="text" tabIndex={-1} autoComplete="off" value="" />
      </div>
    </form>
  );
}

/** Terminal mode without a shop number: asks for the terminal number in the address. */
export function EmptyTerminal(props: { t: TFunction; lang: string }) {
  const { t } = props;
  return (
    <section id="donate" class="donate empty-terminal" aria-labelledby="empty-terminal-title">
      <h2 id="empty-terminal-title">{t("emptyTerminalNumber.title")}</h2>
      <p>{t("emptyTerminalNumber.subtitle", { example: `/${props.lang}/terminal-payment/12` })}</p>
    </section>
  );
}
