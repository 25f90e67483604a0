import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import { translator } from "@/lib/core/i18n.ts";
import { dirOf, isLang } from "@/lib/shared/languages.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import { sandboxOf } from "@/lib/providers/mod.ts";
import { type CardSubmission, isSandboxRef } from "@/lib/providers/sandbox/sandbox.ts";
import type { AppState } from "@/lib/app/state.ts";
import type { SandboxRecord } from "@/lib/storage/types.ts";

interface Data {
  view: "form" | "done" | "unknown";
  record?: SandboxRecord;
  problems?: Record<string, string>;
  values?: Partial<CardSubmission>;
}

/** The sandbox's hosted card page, shown in the payment frame: a plain form, no JavaScript needed. */
export const handler: Handlers<Data, AppState> = {
  async GET(_req, ctx) {
    const sandbox = sandboxOf(ctx.state.services.providerFor(ctx.url.origin));
    const ref = ctx.params.ref;
    const record = sandbox && isSandboxRef(ref) ? await ctx.state.services.store.sandbox.get(ref) : null;
    if (!record || record.kind !== "hosted") return ctx.render({ view: "unknown" }, { status: 404 });
    useLanguageOf(record, ctx.state);
    return ctx.render({ view: record.status === "open" ? "form" : "done", record });
  },
  async POST(req, ctx) {
    const sandbox = sandboxOf(ctx.state.services.providerFor(ctx.url.origin));
    if (!sandbox) return ctx.render({ view: "unknown" }, { status: 404 });
    const form = await req.formData().catch(() => new FormData());
    const values: CardSubmission = {
      cardNumber: String(form.get("cardNumber") ?? "").slice(0, 40),
      expiry: String(form.get("expiry") ?? "").slice(0, 10),
      cvv: String(form.get("cvv") ?? "").slice(0, 10),
      idNumber: String(form.get("idNumber") ?? "").slice(0, 20),
    };
    const outcome = await sandbox.submitCard(ctx.params.ref, values);
    if (outcome.status === "unknown") return ctx.render({ view: "unknown" }, { status: 404 });
    const record = (await ctx.state.services.store.sandbox.get(ctx.params.ref))!;
    useLanguageOf(record, ctx.state);
    if (outcome.status === "invalid") {
      return ctx.render(
        { view: "form", record, problems: outcome.problems, values: { ...values, cvv: "" } },
        {
          status: 422,
        },
      );
    }
    return ctx.render({ view: "done", record: outcome.record });
  },
};

function useLanguageOf(record: SandboxRecord, state: AppState) {
  const lang = String(record.data.language ?? "");
  if (isLang(lang)) {
    state.lang = lang;
    state.dir = dirOf(lang);
    state.t = translator(lang);
  }
}

/** Where the donor goes when the payment is finished: our return route, with the result's id. */
function returnUrl(record: SandboxRecord): string {
  const url = new URL(String(record.data.returnUrl));
  url.searchParams.set("SandboxTransactionId", record.ref);
  url.searchParams.set("SandboxStatusCode", String(record.data.statusCode ?? ""));
  return url.href;
}

export default function SandboxPay({ data, state }: PageProps<Data, AppState>) {
  const { t, lang } = state;
  if (data.view === "unknown" || !data.record) {
    return (
      <main id="main" class="sandbox">
        <Head title={t("sandbox.title")} />
        <p>{t("sandbox.unknown")}</p>
      </main>
    );
  }
  const record = data.record;
  const amount = formatMoney(record.amount, record.currency, lang);
  if (data.view === "done") {
    const href = returnUrl(record);
    return (
      <main id="main" class="sandbox">
        <Head title={t("sandbox.done")} />
        <p role="status">{t("sandbox.done")}</p>
        <a class="button button-primary" href={href} target="_top">{t("sandbox.continue")}</a>
        {/* The frame hands the whole window back to the site; the link above is the no-script way. */}
        <script
          nonce={state.nonce}
          dangerouslySetInnerHTML={{
            __html: `top.location.href=${JSON.stringify(href).replace(/</g, "\\u003c")}`,
          }}
        />
      </main>
    );
  }
  const problems = data.problems ?? {};
  const values = data.values ?? {};
  // A card update's check (tokenization only): nothing is charged, so no amount is shown.
  const checkOnly = record.data.checkOnly === true;
  const field = (name: keyof CardSubmission, label: string, attrs: Record<string, string>) => (
    <div class="field">
      <label for={name}>{label}</label>
      <input
        id={name}
        name={name}
        value={values[name] ?? ""}
        aria-invalid={problems[name] ? "true" : undefined}
        aria-describedby={problems[name] ? `${name}-error` : undefined}
        required
        {...attrs}
      />
      {problems[name] && (
        <p id={`${name}-error`} class="field-error">{t(`sandbox.errors.${problems[name]}`)}</p>
      )}
    </div>
  );
  return (
    <main id="main" class="sandbox">
      <Head title={t("sandbox.title")} />
      <h1>{t("sandbox.title")}</h1>
      <p class="sandbox-notice">{t("sandbox.notice")}</p>
      {checkOnly ? <p>{t("portalCard.sandboxNotice")}</p> : (
        <p>
          {t("sandbox.amount")}: <strong>{amount}</strong>
        </p>
      )}
      {Object.keys(problems).length > 0 && (
        <p role="alert" class="field-error">{t("sandbox.errors.summary")}</p>
      )}
      <form method="post" novalidate>
        {field("cardNumber", t("sandbox.cardNumber"), {
          inputmode: "numeric",
          autocomplete: "cc-number",
          dir: "ltr",
        })}
        {field("expiry", t("sandbox.expiry"), {
          inputmode: "numeric",
          autocomplete: "cc-exp",
          placeholder: "MM/YY",
          dir: "ltr",
        })}
        {field("cvv", t("sandbox.cvv"), { inputmode: "numeric", autocomplete: "cc-csc", dir: "ltr" })}
        {field("idNumber", t("sandbox.idNumber"), { inputmode: "numeric", dir: "ltr" })}
        <button type="submit" class="button button-primary">
          {checkOnly ? t("portalCard.sandboxSubmit") : `${t("sandbox.pay")} ${amount}`}
        </button>
      </form>
    </main>
  );
}
