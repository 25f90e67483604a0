import { useEffect, useRef, useState } from "preact/hooks";
import {
  amountOf,
  autoRenewApplies,
  DONOR_FIELDS,
  type DonorFields,
  fieldError,
  formErrors,
  incorrectAmount,
  isEmail,
  LOADING_MS,
  PAYMENT_RESET_MS,
  type Selection,
} from "@/lib/shared/donation.ts";
import {
  israeliIdError,
  israeliIdToSend,
  taxReceiptErrors,
  type TaxReceiptFields,
  taxReceiptOffered,
} from "@/lib/shared/israeli_id.ts";
import { signPayload } from "@/lib/shared/signing.ts";
import type { GiftFields } from "@/lib/shared/gift_membership.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { Tier } from "@/lib/shared/money.ts";
import { selectionNow, setSelection, useResets, useSelection } from "@/islands/shared/donation_state.ts";
import { type Refusal, refusalOf } from "@/islands/shared/payment_refusals.ts";

/** A browser signing key as the server issued it. */
export interface SigningKey {
  keyId: string;
  key: string;
  expiresAt: number;
}

/** Everything the island needs from the server; texts are translated there. */
export interface DonorPaymentProps {
  lang: string;
  mode: "online" | "terminal";
  shopNumber: string | null;
  /** The provider's display name, for the terminal result pages' query (`{Provider}TransactionId`). */
  provider: string;
  initial: Selection;
  fields: DonorFields;
  /** The tax-receipt box and the Israeli ID number as entered (no-JavaScript post), or empty. */
  taxReceipt: TaxReceiptFields;
  /** Locale keys of field problems the server found (no-JavaScript post). */
  errors: Partial<Record<FieldName, string>>;
  /** A message the server showed (no-JavaScript post). */
  alert: string | null;
  /** The payment frame's address when the server already started the payment. */
  paymentUrl: string | null;
  signingKey: SigningKey;
  /** The tiers (the museum's membership levels) and their prices, as the page shows them. */
  tiers: Tier[];
  /** Test terminal numbers; empty unless TEST_TERMINAL_PAYMENT is on (terminal mode). */
  testTerminals: string[];
  /** Where 'Close' goes without JavaScript: the page itself. */
  pageHref: string;
  /** Translated texts by locale key (the keys listed by the page). */
  texts: Record<string, string>;
}

type Step = "form" | "loading" | "payment";
/** A field that can have a problem: the donor's, the tax-receipt box and the ID number. */
type FieldName = keyof DonorFields | keyof TaxReceiptFields;
type TerminalPhase = "pay" | "attach" | "waiting" | "processing";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A refused call, as {@link refusalOf} says it. */
class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

/**
 * The personal-details form and the payment steps (spec sections 2, 4 and 5): form → loading
 * (2 s) → the provider's frame online, or the terminal's prompts at a kiosk. Fields are checked
 * on blur; problems are tied to their field (aria-describedby, aria-invalid) and announced. The
 * same markup posts to the page without JavaScript.
 *
 * The tax-receipt part (issue 14): a box "I want an Israeli tax receipt (Section 46)" that asks for
 * the donor's Israeli ID number, checked with its check digit like the other fields, offered only
 * while the gift is not in dollars. Without JavaScript the server renders both and checks them;
 * the stylesheet hides the ID field while the box is unticked in both cases.
 *
 * Focus follows the steps: a submit with problems focuses the first invalid field; the loading
 * step focuses its status text, the payment step its heading, a kiosk's sale the phase heading
 * (whose changes its status region announces); closing the payment view (or its timeout) returns
 * focus to the submit button.
 */
export default function DonorPayment(props: DonorPaymentProps) {
  const tx = (key: string) => props.texts[key] ?? key;
  const sel = useSelection(props.initial);
  const [fields, setFields] = useState<DonorFields>(props.fields);
  const [tax, setTax] = useState<TaxReceiptFields>(props.taxReceipt);
  // False for the first render, which must match the server's (the part is shown whatever the
  // currency there, so a donor without JavaScript can always untick it); true once hydrated.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [errors, setErrors] = useState(props.errors);
  // The alert, and whether it is a kiosk's refusal, which links to the pairing page.
  const [alert, setAlert] = useState<Refusal | null>(
    props.alert ? { message: props.alert, pairLink: false } : null,
  );
  const [step, setStep] = useState<Step>(props.paymentUrl ? "payment" : "form");
  const [url, setUrl] = useState<string | null>(props.paymentUrl);
  const [phase, setPhase] = useState<TerminalPhase>("pay");
  const [live, setLive] = useState("");
  // The field whose problem the live region is saying, if any: correcting that field clears it, so
  // a screen reader is not left with "Invalid email address" once the address is right.
  const liveField = useRef<FieldName | null>(null);
  const say = (text: string, field: FieldName | null = null) => {
    liveField.current = field;
    setLive(text);
  };
  const fixed = (name: FieldName) => {
    if (liveField.current === name) say("");
  };
  const key = useRef(props.signingKey);
  const formRef = useRef<HTMLDivElement>(null);
  const busy = useRef(false);
  // The element (a selector inside the island) to focus once the next render is on screen.
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    const el = focusNext.current && formRef.current?.querySelector<HTMLElement>(focusNext.current);
    if (el) {
      focusNext.current = null;
      el.focus();
    }
  });
  const goTo = (next: Step, focus: string) => {
    focusNext.current = focus;
    setStep(next);
  };

  /** Back to the form; `refocus` puts focus on the submit button (Close, or the view's timeout). */
  const reset = (refocus?: boolean) => {
    if (refocus) focusNext.current = ".donate-button";
    setStep("form");
    setUrl(null);
    setAlert(null);
    setPhase("pay");
    busy.current = false;
  };

  // Choosing a preset resets the form (spec section 4).
  const resets = useResets();
  const firstReset = useRef(resets);
  useEffect(() => {
    if (resets !== firstReset.current) reset();
  }, [resets]);

  // The payment view clears itself after 60 s (spec section 4).
  useEffect(() => {
    if (step !== "payment" || props.mode !== "online") return;
    // Focus returns to the submit button unless the donor has moved it elsewhere on the page.
    const timer = setTimeout(() => {
      const at = document.activeElement;
      reset(!at || at === document.body || !!formRef.current?.contains(at));
    }, PAYMENT_RESET_MS);
    return () => clearTimeout(timer);
  }, [step, url]);

  const amount = amountOf(sel, props.tiers);
  const offered = taxReceiptOffered(amount?.currency ?? null);
  const period = sel.period === "monthly" ? tx("form.period.monthly") : tx("form.period.oneTime");
  const donateLabel = amount && !incorrectAmount(amount.amount)
    ? tx("form.donate")
      .replace("{{amount}}", String(amount.amount))
      .replace("{{currency}}", tx(`form.currency.${amount.currency}`))
      .replace("{{period}}", period)
    : tx("form.donateNoAmount");

  // The alert (role="alert") is announced once; the live region is for field problems only.
  const showAlert = (message: string, pairLink = false) => {
    setAlert({ message, pairLink });
    say("");
  };
  const showError = (e: unknown) =>
    e instanceof Refused
      ? showAlert(e.refusal.message, e.refusal.pairLink)
      : showAlert(e instanceof Error ? e.message : tx("payment.defaultError"));

  const freshKey = async (): Promise<SigningKey> => {
    if (key.current.expiresAt - Date.now() > 60_000) return key.current;
    const res = await fetch("/api/signing-key");
    if (!res.ok) throw new Error(tx("payment.errorPrefix") + tx("payment.networkError"));
    key.current = await res.json();
    return key.current;
  };

  const call = async (path: string, body: unknown) => {
    let res: Response;
    try {
      res = await fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    } catch {
      throw new Error(tx("payment.errorPrefix") + tx("payment.networkError"));
    }
    const json = await res.json().catch(() => null);
    if (!res.ok) {
      throw new Refused(
        refusalOf({ status: res.status, body: json, retryAfter: res.headers.get("retry-after") }, tx),
      );
    }
    return json;
  };

  const submit = async () => {
    if (busy.current) return;
    setAlert(null);
    const picked = selectionNow();
    const chosen = amountOf(picked, props.tiers);
    // A tier is a membership level: the server checks the amount against its price.
    const levelId = picked.other ? null : picked.tier;
    const currency = chosen?.currency ?? null;
    const found: Partial<Record<FieldName, string>> = {
      ...formErrors(fields),
      // A part hidden for a gift in dollars is not asked for (nor sent), whatever its box says.
      ...(taxReceiptOffered(currency) ? taxReceiptErrors(tax, currency) : {}),
    };
    setErrors(found);
    if (liveField.current && !found[liveField.current]) say("");
    const firstBad = ([...DONOR_FIELDS, "taxReceipt", "israeliId"] as FieldName[]).find((f) => found[f]);
    if (firstBad) document.getElementById(`donor-${firstBad}`)?.focus();
    if (!chosen) return showAlert(tx("form.selectMembership"));
    if (incorrectAmount(chosen.amount)) {
      return showAlert(tx("payment.errorPrefix") + tx("payment.incorrectAmount"));
    }
    if (firstBad) return say(tx(found[firstBad]!), firstBad);
    // A gift membership (issue 28): its fields are the page's form's (no island of their own); its
    // rules load only when it is asked for (the page's JavaScript budget).
    const form = formRef.current?.closest("form");
    let gift: GiftFields | null = null;
    if (form && new FormData(form).get("gift") === "on") {
      if (levelId === null || picked.period === "monthly") {
        return showAlert(tx("giftMembership.levelOnly"));
      }
      const rules = await import("@/lib/shared/gift_membership.ts").catch(() => null);
      if (!rules) return showAlert(tx("payment.errorPrefix") + tx("payment.networkError"));
      gift = rules.giftFieldsOf(Object.fromEntries(new FormData(form)), props.lang as Lang);
      const problems = rules.giftErrors(gift!, new Date(), isEmail);
      const bad = rules.GIFT_FIELDS.find((f) => problems[f]);
      if (bad) {
        document.getElementById(bad)?.focus();
        return showAlert(tx(problems[bad]!));
      }
    }
    busy.current = true;
    const started = Date.now();
    const online = props.mode === "online";
    // The step's status region announces it; focus moves to its text.
    if (online) goTo("loading", ".loading-text");
    else goTo("payment", ".terminal-phase");
    setPhase("pay");
    const timers = online ? [] : [
      setTimeout(() => setPhase("attach"), 1500),
      setTimeout(() => setPhase("waiting"), 3500),
    ];
    try {
      const { id } = await call("/api/user", { ...fields, israeliId: israeliIdToSend(tax, currency) });
      const payload = {
        amount: chosen.amount,
        currency: chosen.currency,
        userId: id,
        isMonthly: online && picked.period === "monthly",
        language: props.lang,
        ...(levelId === null ? {} : { levelId }),
        // Not for a gift membership (the API refuses it): the giver's card is not kept for it.
        ...(autoRenewApplies(picked, online) && !gift ? { autoRenew: true } : {}),
        ...gift,
      };
      if (online) {
        const answer = await call("/api/payment/create", await signPayload(payload, await freshKey()));
        await wait(LOADING_MS - (Date.now() - started));
        setUrl(answer?.url || null);
        goTo("payment", ".payment-step-title");
        busy.current = false;
        return;
      }
      const result = await call(
        "/api/payment/pay-emv",
        await signPayload({ ...payload, shopNumber: props.shopNumber ?? "" }, await freshKey()),
      );
      timers.forEach(clearTimeout);
      setPhase("processing");
      const q = new URLSearchParams();
      const shop = encodeURIComponent(props.shopNumber ?? "");
      if (result.StatusCode === "000") {
        q.set(`${props.provider}TransactionId`, result.ResultData?.TransactionId ?? "");
        location.assign(`/${props.lang}/terminal-success/${shop}?${q}`);
      } else {
        q.set(`${props.provider}StatusCode`, String(result.StatusCode));
        q.set(`${props.provider}TransactionId`, result.ResultData?.TransactionId ?? "");
        location.assign(`/${props.lang}/terminal-error/${shop}?${q}`);
      }
    } catch (e) {
      timers.forEach(clearTimeout);
      busy.current = false;
      goTo("form", ".donate-button");
      showError(e);
    }
  };

  // The section is one form with the contribution picker: take over its submit.
  useEffect(() => {
    const form = formRef.current?.closest("form");
    if (!form) return;
    const onSubmit = (e: SubmitEvent) => {
      const submitter = e.submitter as HTMLButtonElement | null;
      if (submitter?.name === "testTerminal") return; // handled by the button's own click
      e.preventDefault();
      submitLatest.current();
    };
    form.addEventListener("submit", onSubmit);
    form.dataset.enhanced = "true";
    return () => form.removeEventListener("submit", onSubmit);
  }, []);
  const submitLatest = useRef(submit);
  submitLatest.current = submit;

  const testPayment = async (e: MouseEvent, terminal: string) => {
    e.preventDefault();
    try {
      const answer = await call(`/api/payment/test-emv/${encodeURIComponent(terminal)}`, {
        language: props.lang,
        shopNumber: props.shopNumber ?? undefined,
      });
      location.assign(answer.url);
    } catch (err) {
      showError(err);
    }
  };

  // One text field: the donor's four, or the tax-receipt part's ID number (`israeliId`).
  const field = (name: keyof DonorFields | "israeliId", type: "text" | "email", autoComplete: string) => {
    const error = errors[name];
    const id = `donor-${name}`;
    const isId = name === "israeliId";
    const check = (value: string) => isId ? israeliIdError(value) : fieldError(name, value);
    return (
      <div class={isId ? "field tax-id-field" : "field"} key={name}>
        <label for={id}>{tx(isId ? "taxReceipt.idLabel" : `form.${name}`)}</label>
        <input
          id={id}
          name={name}
          type={type as "text"}
          autoComplete={autoComplete}
          maxLength={isId ? 20 : name === "email" ? 254 : 100}
          inputMode={isId ? "numeric" : undefined}
          dir={isId ? "ltr" : undefined}
          aria-required="true"
          aria-invalid={error ? "true" : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          value={isId ? tax.israeliId : fields[name]}
          onInput={(e) => {
            const value = (e.currentTarget as HTMLInputElement).value;
            if (isId) setTax((x) => ({ ...x, israeliId: value }));
            else setFields((f) => ({ ...f, [name]: value }));
            if (errors[name] && !check(value)) {
              setErrors((x) => ({ ...x, [name]: undefined }));
              fixed(name);
            }
          }}
          onBlur={(e) => {
            const problem = check((e.currentTarget as HTMLInputElement).value) ?? undefined;
            setErrors((x) => ({ ...x, [name]: problem }));
            if (!problem) fixed(name);
            else if (problem !== errors[name]) say(tx(problem), name);
          }}
        />
        {error && <p class="field-error" id={`${id}-error`}>{tx(error)}</p>}
      </div>
    );
  };

  const taxError = errors.taxReceipt;
  const taxPart = (
    <div class="tax-receipt" hidden={hydrated && !offered}>
      <div class="checkbox-field">
        <input
          id="donor-taxReceipt"
          name="taxReceipt"
          type="checkbox"
          value="on"
          checked={tax.taxReceipt}
          aria-describedby={`donor-taxReceipt-hint${taxError ? " donor-taxReceipt-error" : ""}`}
          aria-invalid={taxError ? "true" : undefined}
          onChange={(e) => {
            const taxReceipt = (e.currentTarget as HTMLInputElement).checked;
            setTax((x) => ({ ...x, taxReceipt }));
            if (!taxReceipt) {
              setErrors((x) => ({ ...x, taxReceipt: undefined, israeliId: undefined }));
              fixed("israeliId");
            }
          }}
        />
        <label for="donor-taxReceipt">{tx("taxReceipt.wantReceipt")}</label>
      </div>
      <p class="field-hint" id="donor-taxReceipt-hint">{tx("taxReceipt.hint")}</p>
      {taxError && <p class="field-error" id="donor-taxReceipt-error">{tx(taxError)}</p>}
      {field("israeliId", "text", "off")}
    </div>
  );

  // Consent to renew automatically: offered for a one-time gift at a tier, online; without
  // JavaScript always shown (the server applies it only to such a gift).
  const renewOffered = props.mode === "online" && (!hydrated ||
    (sel.tier !== null && !sel.other && sel.period === "one-time"));
  const renewPart = props.mode === "online" && (
    <div class="auto-renew-consent" hidden={!renewOffered}>
      <div class="checkbox-field">
        <input
          id="donor-autoRenew"
          name="autoRenew"
          type="checkbox"
          value="on"
          checked={sel.autoRenew}
          aria-describedby="donor-autoRenew-hint"
          onChange={(e) => setSelection({ autoRenew: (e.currentTarget as HTMLInputElement).checked })}
        />
        <label for="donor-autoRenew">{tx("membershipAutoRenew.consent.label")}</label>
      </div>
      <p class="field-hint" id="donor-autoRenew-hint">{tx("membershipAutoRenew.consent.help")}</p>
    </div>
  );

  const close = (e: MouseEvent) => {
    e.preventDefault();
    reset(true);
  };

  return (
    <div class="payment-steps" ref={formRef}>
      <div hidden={step !== "form"}>
        <div class="donor-fields">
          {field("firstName", "text", "given-name")}
          {field("lastName", "text", "family-name")}
          {field("email", "email", "email")}
          {field("country", "text", "country-name")}
        </div>
        {taxPart}
        {renewPart}
        {alert && (
          <p class="form-alert" role="alert">
            {alert.message}
            {alert.pairLink && (
              <>
                {" "}
                <a href={`/${props.lang}/kiosk-pair`}>{tx("kiosk.pairLink")}</a>
              </>
            )}
          </p>
        )}
        <button type="submit" class="button button-primary donate-button">{donateLabel}</button>
        {props.testTerminals.length > 0 && (
          <div class="test-terminals">
            <p>{tx("terminal.testTerminals")}</p>
            {props.testTerminals.map((n) => (
              <button
                key={n}
                type="submit"
                name="testTerminal"
                value={n}
                formNoValidate
                class="button button-secondary"
                onClick={(e) => testPayment(e as unknown as MouseEvent, n)}
              >
                {tx("terminal.testTerminal").replace("{{number}}", n)}
              </button>
            ))}
          </div>
        )}
      </div>
      {step === "loading" && (
        <div class="loading" role="status">
          <span class="spinner" aria-hidden="true" />
          <p class="loading-text" tabIndex={-1}>{tx("payment.processing")}</p>
        </div>
      )}
      {step === "payment" && props.mode === "online" && (
        <div class="payment-view">
          <h3 class="payment-step-title" tabIndex={-1}>{tx("payment.frameTitle")}</h3>
          {url
            ? (
              <>
                <p class="deadline-note">{tx("payment.deadline")}</p>
                <iframe
                  src={url}
                  title={tx("payment.frameTitle")}
                  height="500"
                  width="100%"
                  class="payment-frame"
                />
              </>
            )
            : <p class="notice-success" role="status">{tx("payment.success")}</p>}
          <a class="button button-secondary" href={props.pageHref} onClick={close}>{tx("payment.close")}</a>
        </div>
      )}
      {step === "payment" && props.mode === "terminal" && (
        <div class="terminal-view" role="status">
          <span class="spinner" aria-hidden="true" />
          <h3 class="terminal-phase" tabIndex={-1}>
            {tx(
              phase === "pay"
                ? "terminal.payAtTerminal"
                : phase === "attach"
                ? "terminal.attachCard"
                : phase === "waiting"
                ? "terminal.waitingForCard"
                : "terminal.processing",
            )}
          </h3>
          <p class="deadline-note">{tx("terminal.deadline")}</p>
        </div>
      )}
      <p class="visually-hidden" aria-live="polite">{live}</p>
    </div>
  );
}
