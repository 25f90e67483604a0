/**
 * The controller of the donation and kiosk pages (`index.tsx`, `terminal-payment/[[shopNumber]].tsx`;
 * a private helper beside them, which the router ignores): the GET (through the page cache), and
 * the no-JavaScript POST (the whole page is one form posting to itself). The POST checks the same
 * rules as the islands (`lib/shared/donation.ts`), shows problems in place with the donor's input
 * kept (422), creates the donor and the payment, and renders the page with the payment frame; in
 * terminal mode it runs the sale and redirects to the result page. Cross-site posts never get here:
 * `_middleware.ts` refuses them (403) for every form under `/{lang}/`. A form whose honeypot field
 * ({@link HONEYPOT_FIELD}, hidden from people) is filled is a robot's: refused with the page's
 * general error, nothing created. Creating the donor and the payment counts against the client's
 * rate limits as the API's calls do (`lib/rate_limits/rate_limits.ts`); over one, the page says so in the
 * donor's language, with status 429 and `Retry-After`. The tax-receipt part (a box and the donor's
 * Israeli ID number, `lib/shared/israeli_id.ts`) is checked like the other fields and the ID number
 * is stored with the donor only when the box is ticked; it is never logged. The tier cards are the
 * museum's membership levels (`lib/museum/`): the GET reads them as pages do (a second late at
 * most, the version in the page cache's key), the POST reads them fresh, and a gift at a tier is
 * a gift at its level (`levelId`), priced by the server.
 *
 * @module
 */
import type { DonationData } from "@/components/DonationSection.tsx";
import { emptyGiftPart } from "@/components/GiftMembershipFields.tsx";
import { giftErrors, giftFieldsOf } from "@/lib/shared/gift_membership.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import {
  amountOf,
  autoRenewApplies,
  DONOR_FIELDS,
  type DonorFields,
  EMPTY_SELECTION,
  formErrors,
  incorrectAmount,
  isEmail,
  selectionFromForm,
} from "@/lib/shared/donation.ts";
import { NO_TAX_RECEIPT, taxReceiptErrors, taxReceiptFromForm } from "@/lib/shared/israeli_id.ts";
import { readFlags } from "@/lib/settings/flags.ts";
// The two modules, not the memberships barrel: the page loads without the cards, emails and wallet.
import { renewalKey } from "@/lib/memberships/renewal_link.ts";
import { renewalPrefill } from "@/lib/memberships/renewal_page.ts";
import { readMuseumSettings, readMuseumSettingsForPages } from "@/lib/museum/mod.ts";
import { levelById, type MuseumSettings, tiersOf } from "@/lib/shared/museum.ts";
import type { RouteContext } from "@/lib/framework/mod.ts";
import { errorAnswer } from "@/lib/http/domain_errors.ts";
import { limitClient, requestAddress } from "@/lib/http/rate_limit.ts";
import { crossSiteRefusal } from "@/lib/http/same_origin.ts";
import { currencyCode } from "@/lib/shared/money.ts";
import { RateLimitedError } from "@/lib/rate_limits/rate_limits.ts";
import { type BrowserKey, issueBrowserKey } from "@/lib/signing/signature_check.ts";
import type { AppState } from "@/lib/app/state.ts";

type Ctx = RouteContext<DonationData, AppState>;

const EMPTY_FIELDS: DonorFields = { firstName: "", lastName: "", email: "", country: "" };

/** The form's honeypot: hidden from people and screen readers, so only a robot fills it in. */
export const HONEYPOT_FIELD = "website";

/** The data of a fresh page, with the browser key it hands out and the museum's levels. */
export function donationData(
  ctx: Ctx,
  mode: "online" | "terminal",
  shopNumber: string | null,
  signingKey: BrowserKey,
  museum: MuseumSettings,
): DonationData {
  const { services, flags } = ctx.state;
  const { config } = services;
  return {
    mode,
    shopNumber,
    signingKey,
    levels: museum.levels,
    selection: EMPTY_SELECTION,
    fields: EMPTY_FIELDS,
    taxReceipt: NO_TAX_RECEIPT,
    gift: emptyGiftPart(ctx.state.lang),
    errors: {},
    alert: null,
    notice: null,
    paymentUrl: null,
    // Monthly gifts are taken online only.
    monthlyEnabled: mode === "online" && flags.MONTHLY_PAYMENT,
    testTerminals: mode === "terminal" && flags.TEST_TERMINAL_PAYMENT ? config.payments.testTerminals : [],
    provider: services.providerFor(config.publicUrl ?? ctx.url.origin).displayName,
    terminalDeadlineMs: config.payments.terminalDeadlineMs,
  };
}

/**
 * Answers the GET of the donation page (online, or a kiosk's with its shop number) through the
 * page cache: the page's HTML depends on the language, the flags and what {@link donationData}
 * derives from them and the configuration, and on the URL (which the route layer adds to the key);
 * the browser signing key, fresh for every response, is the page's one slot besides the CSP nonce.
 * So a visitor's page is a join of cached HTML with their own key and nonce, never a render, once
 * one visitor has seen that language with those flags.
 */
export function donationPage(
  ctx: Ctx,
  mode: "online" | "terminal",
  shopNumber: string | null,
): Response | Promise<Response> {
  // The middleware's read, so the header and the cards (and the cache key) are of one version.
  const museum = ctx.state.museum ?? readMuseumSettingsForPages(ctx.state.services.store);
  // A URL without a query string has neither: no URL parsed for the page most visitors ask for.
  const query = ctx.hono.req.url.includes("?") ? ctx.url.searchParams : null;
  if (mode === "online" && query && (query.has("renew") || query.has("level"))) {
    return Promise.resolve(museum).then((settings) => renewalPage(ctx, settings));
  }
  return museum instanceof Promise
    ? museum.then((settings) => cachedPage(ctx, mode, shopNumber, settings))
    : cachedPage(ctx, mode, shopNumber, museum);
}

/** {@link donationPage} once the museum's settings are read. */
function cachedPage(
  ctx: Ctx,
  mode: "online" | "terminal",
  shopNumber: string | null,
  museum: MuseumSettings,
): Response | Promise<Response> {
  const signingKey = issueBrowserKey(ctx.state.services.config.appSecret);
  return ctx.renderCached({
    key: pageKey(ctx, mode, shopNumber, museum),
    data: (slots) =>
      donationData(ctx, mode, shopNumber, {
        keyId: slots.text("keyId"),
        key: slots.text("key"),
        expiresAt: slots.number("keyExpiresAt"),
      }, museum),
    slots: { keyId: signingKey.keyId, key: signingKey.key, keyExpiresAt: String(signingKey.expiresAt) },
  });
}

/**
 * The page for a renewal link (`?renew=<token>`) or a level's link (`?level=<id>`): the level
 * selected and, for a valid renewal token, the member's details filled in, rendered for this visitor
 * alone (never cached: it carries a person's details); a bad token opens the usual page with a notice.
 */
async function renewalPage(ctx: Ctx, museum: MuseumSettings): Promise<Response> {
  const { services, t, lang } = ctx.state;
  const key = await renewalKey(services.config.appSecret);
  const prefill = await renewalPrefill({ store: services.store, key }, ctx.url.searchParams, museum.levels);
  if (!prefill) return cachedPage(ctx, "online", null, museum);
  const data = donationData(ctx, "online", null, issueBrowserKey(services.config.appSecret), museum);
  const level = prefill.level;
  const notice = prefill.notice && {
    kind: prefill.notice === "renewing" ? "status" as const : "alert" as const,
    text: t(`membershipRenewals.page.${prefill.notice === "renewing" ? "renewing" : "badLink"}`, {
      level: level ? level.name[lang] ?? level.name.en : "",
    }),
  };
  return ctx.render({
    ...data,
    selection: level
      ? { ...EMPTY_SELECTION, tier: level.id, autoRenew: ctx.url.searchParams.get("autoRenew") === "1" }
      : data.selection,
    fields: prefill.fields ?? data.fields,
    notice: notice || null,
  }, { headers: { "cache-control": "no-store", "referrer-policy": "no-referrer" } });
}

const NO_KEY: BrowserKey = { keyId: "", key: "", expiresAt: 0 };

/** Page keys by what they are made from, per app, so that a page is not described anew for every visitor. */
const pageKeysOf = new WeakMap<AppState["services"], Map<string, string>>();

/** The flags as JSON, once per flags object (pages share one object per read, a second at most). */
const flagsTexts = new WeakMap<object, string>();
function flagsText(flags: AppState["flags"]): string {
  let text = flagsTexts.get(flags);
  if (text === undefined) flagsTexts.set(flags, text = JSON.stringify(flags));
  return text;
}

/**
 * The page cache key: everything the HTML is made from but the slots and the URL. The signing key
 * is left out by construction (a constant stands in for it), the flags go in whole, the museum's
 * settings (its name, colours, levels) by their version. It depends only
 * on the language, the mode and shop, the flags, the museum settings' version (every save bumps it)
 * and the provider's origin (an app's configuration is the same for its life), so it is kept by
 * those, per app (at most a few hundred: languages × flags × the shops asked for).
 */
function pageKey(
  ctx: Ctx,
  mode: "online" | "terminal",
  shopNumber: string | null,
  museum: MuseumSettings,
): string {
  const { lang, flags, services } = ctx.state;
  const origin = services.config.publicUrl ?? ctx.url.origin;
  const inputs = `${lang}\n${mode}\n${shopNumber}\n${flagsText(flags)}\n${origin}\n${museum.version}`;
  let pageKeys = pageKeysOf.get(services);
  if (!pageKeys) pageKeysOf.set(services, pageKeys = new Map());
  let key = pageKeys.get(inputs);
  if (key === undefined) {
    // The levels are named by the settings' version (every save bumps it), not held: held, five
    // languages of names and benefits made the key too long to cache (`tests/page_cache_keys_test.ts`).
    const { signingKey: _, levels: _levels, ...shown } = donationData(ctx, mode, shopNumber, NO_KEY, museum);
    key = JSON.stringify({ lang, flags, museum: museum.version, shown });
    if (pageKeys.size >= 512) pageKeys.clear();
    pageKeys.set(inputs, key);
  }
  return key;
}

/** Handles the page's POST (the form without JavaScript). */
export async function handleDonationPost(
  req: Request,
  ctx: Ctx,
  mode: "online" | "terminal",
  shopNumber: string | null,
): Promise<Response> {
  const { services, t } = ctx.state;
  // Read fresh: the server prices the gift from the levels saved now.
  const [flags, museum] = await Promise.all([readFlags(services.store), readMuseumSettings(services.store)]);
  ctx.state.flags = flags;
  ctx.state.museum = museum;
  const data = donationData(ctx, mode, shopNumber, issueBrowserKey(services.config.appSecret), museum);
  let form: Record<string, string>;
  try {
    const raw = await req.formData();
    form = Object.fromEntries(
      [...raw.entries()].filter(([, v]) => typeof v === "string") as [string, string][],
    );
  } catch {
    return ctx.render({ ...data, alert: t("payment.defaultError") }, { status: 400 });
  }
  const log = ctx.state.log;
  if (form[HONEYPOT_FIELD]) {
    log.warn("donation form refused: honeypot filled", {});
    return ctx.render({ ...data, alert: t("payment.defaultError") }, { status: 422 });
  }
  try {
    return await postDonation(ctx, mode, shopNumber, data, form);
  } catch (e) {
    if (!(e instanceof RateLimitedError)) throw e;
    // The donor's input is kept: they may try again once the window is over.
    const alert = t("payment.errorPrefix") +
      t("rateLimit.tooMany", { minutes: Math.ceil(e.retryAfterSeconds / 60) });
    return ctx.render({ ...data, ...entered(data, form), alert }, {
      status: 429,
      headers: { "retry-after": String(e.retryAfterSeconds), "cache-control": "no-store" },
    });
  }
}

/** The choice, the donor's fields and the tax-receipt part as the form gave them. */
function entered(data: DonationData, form: Record<string, string>) {
  const selection = selectionFromForm(form, tiersOf(data.levels));
  if (!data.monthlyEnabled) selection.period = "one-time";
  const fields = Object.fromEntries(
    DONOR_FIELDS.map((f) => [f, (form[f] ?? "").slice(0, 300)]),
  ) as unknown as DonorFields;
  // A gift membership (issue 28): its fields as typed, kept when the box is unticked too.
  const empty = emptyGiftPart(data.gift.fields.giftLanguage);
  const gift = {
    ...empty,
    on: data.mode === "online" && form.gift === "on",
    fields: giftFieldsOf(form, empty.fields.giftLanguage as Lang) ?? empty.fields,
  };
  return { selection, fields, taxReceipt: taxReceiptFromForm(form), gift };
}

/**
 * What only a POST uses (the donor, the payment, the terminal sale, and through them the donations,
 * memberships and billing modules): loaded with the first POST, not with the page (issue 29: the
 * page's first answer after a start waits for its modules).
 */
const postModules = async () => {
  const [donors, payments, providers, online, kiosk] = await Promise.all([
    import("@/lib/donors/donors.ts"),
    import("@/lib/app/payments.ts"),
    import("@/lib/providers/mod.ts"),
    import("@/lib/donations/online.ts"),
    import("@/lib/kiosk/terminal_sales.ts"),
  ]);
  return {
    createDonor: donors.createDonor,
    paymentsContext: payments.paymentsContext,
    terminalFor: providers.terminalFor,
    createOnlinePayment: online.createOnlinePayment,
    terminalPayment: kiosk.terminalPayment,
  };
};

/** The POST once the form is read: a test terminal button, or the donor's form. */
async function postDonation(
  ctx: Ctx,
  mode: "online" | "terminal",
  shopNumber: string | null,
  data: DonationData,
  form: Record<string, string>,
): Promise<Response> {
  const { services, t, lang, log } = ctx.state;
  const { createDonor, paymentsContext, terminalFor, createOnlinePayment, terminalPayment } =
    await postModules();

  // A test terminal button (terminal mode, flag on) works without JavaScript too.
  if (form.testTerminal !== undefined) {
    // A test terminal the page does not offer comes from a forged form: refused as one from another site is.
    if (mode !== "terminal" || !data.testTerminals.includes(form.testTerminal)) return crossSiteRefusal();
    await limitClient(ctx, "donor");
    await limitClient(ctx, "payment");
    const donor = await createDonor(services.store, {
      firstName: "Terminal test",
      lastName: form.testTerminal,
      email: `terminal-${form.testTerminal}@test.invalid`,
      country: "—",
    });
    const { url } = await createOnlinePayment(
      paymentsContext(services, false, ctx.url, log),
      { amount: 1, currency: 1, userId: donor.id, isMonthly: false, language: lang },
      "test-terminal",
      shopNumber ?? form.testTerminal,
    );
    return redirect(url);
  }

  const { selection, fields, taxReceipt, gift } = entered(data, form);
  const chosen = amountOf(selection, tiersOf(data.levels));
  // A gift at a tier is a gift at its level; an other amount stays a donation whatever it is.
  const level = selection.other ? undefined : levelById(data.levels, selection.tier);
  const errors: DonationData["errors"] = {
    ...formErrors(fields),
    ...taxReceiptErrors(taxReceipt, chosen?.currency ?? null),
  };
  if (gift.on) gift.errors = giftErrors(gift.fields, new Date(), isEmail);
  const shown = { ...data, selection, fields, taxReceipt, errors, gift };
  let alert: string | null = null;
  if (!chosen) alert = t("form.selectMembership");
  else if (gift.on && (!level || selection.period === "monthly")) alert = t("giftMembership.levelOnly");
  else if (incorrectAmount(chosen.amount)) alert = t("payment.errorPrefix") + t("payment.incorrectAmount");
  else if (level && selection.period === "monthly" && !level.monthly) {
    alert = t("payment.errorPrefix") + t("payment.levelNotMonthly");
  }
  if (alert || Object.keys(errors).length > 0 || Object.keys(gift.errors).length > 0) {
    return ctx.render({ ...shown, alert }, { status: 422 });
  }

  // zod and the schemas load here, not with the page: building them took about 45 ms of a cold
  // start's first page (bench/README.md, cold start).
  const { CreateDonorSchema } = await import("@/lib/donors/schemas.ts");
  // The ID number only when the box is ticked (its errors above already covered the currency).
  const parsed = CreateDonorSchema.safeParse({
    ...fields,
    israeliId: taxReceipt.taxReceipt ? taxReceipt.israeliId : undefined,
  });
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "";
    return ctx.render({ ...shown, alert: t("payment.errorPrefix") + message }, { status: 422 });
  }
  try {
    // Both limits before anything is created: a refused payment leaves no donor without one.
    await limitClient(ctx, "donor");
    if (mode === "online") await limitClient(ctx, "payment");
    const donor = await createDonor(services.store, parsed.data);
    // Not its id: a donor id is the key to the donor's data and cancel button (lib/core/log.ts).
    log.info("donor created");
    const input = {
      amount: chosen!.amount,
      currency: currencyCode(chosen!.currency),
      userId: donor.id,
      language: lang,
      levelId: level?.id,
    };
    if (mode === "online") {
      const payments = {
        ...paymentsContext(services, data.monthlyEnabled, ctx.url, log, requestAddress(ctx)),
        countRequest: false, // counted above, before the donor
      };
      const { url } = await createOnlinePayment(payments, {
        ...input,
        isMonthly: selection.period === "monthly",
        // The consent counts only for a one-time gift at a level (ignored otherwise, as the island does).
        // Not for a gift membership: the giver's card is not kept for someone else's renewals.
        autoRenew: level !== undefined && !gift.on && autoRenewApplies(selection, true),
        gift: gift.on ? gift.fields : null,
      });
      return ctx.render({ ...shown, paymentUrl: url });
    }
    const shop = shopNumber ?? "";
    const terminalId = terminalFor(services.config, shop);
    if (!terminalId) {
      const message = `No terminal is configured for shop ${shop}`;
      return ctx.render({ ...shown, alert: t("payment.errorPrefix") + message }, { status: 422 });
    }
    const result = await terminalPayment(
      paymentsContext(services, false, ctx.url, log),
      { ...input, shopNumber: shop },
      terminalId,
      services.config.payments.terminalDeadlineMs,
    );
    const q = new URLSearchParams();
    const name = data.provider;
    if (result.StatusCode !== "000") q.set(`${name}StatusCode`, result.StatusCode);
    q.set(`${name}TransactionId`, result.ResultData.TransactionId ?? "");
    const page = result.StatusCode === "000" ? "terminal-success" : "terminal-error";
    return redirect(`/${lang}/${page}/${encodeURIComponent(shop)}?${q}`);
  } catch (e) {
    if (e instanceof RateLimitedError) throw e;
    // A refusal of the domain (the API would answer it with its status) is shown in place.
    const answer = errorAnswer(e);
    if (!answer) throw e;
    // The provider or the terminal service not answering: the donor's language, not the API's English.
    const unavailable = answer.status >= 500;
    // A terminal with a sale waiting: the refusal's name (lib/donations/errors.ts) in the page's language.
    const terminal = answer.errors?.[0]?.path === "terminal" ? answer.errors[0].message : null;
    const message = unavailable
      ? t("payment.serviceUnavailable")
      : terminal
      ? t(`kiosk.terminalRefused.${terminal}`)
      : answer.message;
    return ctx.render({ ...shown, alert: t("payment.errorPrefix") + message }, {
      status: unavailable ? 503 : 422,
    });
  }
}

function redirect(location: string): Response {
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
}
