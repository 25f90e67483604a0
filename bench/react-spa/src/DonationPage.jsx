import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { signedPost } from "./api.js";

const TIERS = [{ id: 1, usd: 5, nis: 20 }, { id: 2, usd: 25, nis: 100 }, { id: 3, usd: 50, nis: 200 }, {
  id: 4,
  usd: 100,
  nis: 400,
}];
const FIELDS = ["firstName", "lastName", "email", "country"];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function money(amount, currency, lang) {
  return new Intl.NumberFormat(lang, { style: "currency", currency, maximumFractionDigits: 0 }).format(amount);
}

function validate(fields, t) {
  const errors = {};
  if (!fields.firstName.trim()) errors.firstName = t("form.enterFirstName");
  if (!fields.lastName.trim()) errors.lastName = t("form.enterLastName");
  if (!fields.email.trim()) errors.email = t("form.enterEmail");
  else if (!EMAIL.test(fields.email)) errors.email = t("form.invalidEmail");
  if (!fields.country.trim()) errors.country = t("form.enterCountry");
  return errors;
}

export function DonationPage({ mode }) {
  const { t, i18n } = useTranslation();
  const { shopNumber } = useParams();
  const [flags, setFlags] = useState({ MONTHLY_PAYMENT: false, TEST_TERMINAL_PAYMENT: false });
  const [period, setPeriod] = useState("one-time");
  const [choice, setChoice] = useState(null);
  const [other, setOther] = useState({ amount: "", currency: "nis" });
  const [fields, setFields] = useState({ firstName: "", lastName: "", email: "", country: "" });
  const [touched, setTouched] = useState({});
  const [step, setStep] = useState("form");
  const [alert, setAlert] = useState(null);
  const [frame, setFrame] = useState(null);
  const reset = useRef();
  useEffect(() => {
    fetch("/api/feature-flags").then((r) => r.json()).then((list) =>
      setFlags(Object.fromEntries(list.map((f) => [f.flag, f.enabled])))
    );
  }, []);
  const errors = useMemo(() => validate(fields, t), [fields, t]);
  const amount = choice === "other"
    ? { amount: Math.round(Number(other.amount) * 100), currency: other.currency }
    : choice
    ? { amount: TIERS[choice - 1][period === "monthly" ? "usd" : "nis"] * 100, currency: "nis" }
    : null;

  async function submit(e) {
    e.preventDefault();
    setTouched(Object.fromEntries(FIELDS.map((f) => [f, true])));
    if (!amount) return setAlert(t("form.selectMembership"));
    if (Object.keys(errors).length) return;
    setStep("loading");
    try {
      const user = await signedPost("/api/user", fields);
      const payment = await signedPost("/api/payment/create", {
        ...amount,
        userId: user.id,
        isMonthly: period === "monthly",
        language: i18n.language,
        shopNumber,
      });
      setFrame(payment.url);
      setStep("frame");
      reset.current = setTimeout(() => setStep("form"), 60_000);
    } catch (err) {
      setAlert(t("payment.errorPrefix") + (err.message || t("payment.defaultError")));
      setStep("form");
    }
  }
  useEffect(() => () => clearTimeout(reset.current), []);

  return (
    <form className={mode === "terminal" ? "donation-form kiosk" : "donation-form"} onSubmit={submit} noValidate>
      {mode === "online" && (
        <section className="hero">
          <p>{t("welcome.museumTitle")}</p>
          <h1>{t("welcome.headline")}</h1>
          <p>{t("welcome.description")}</p>
          <a className="button" href="#donate">{t("welcome.donateNow")}</a>
        </section>
      )}
      <section id="donate">
        <h2>{t("donation.sectionTitle")}</h2>
        <p>{t("donation.subtitle")}</p>
        {flags.MONTHLY_PAYMENT && mode === "online" && (
          <div role="tablist" aria-label={t("donation.periodLegend")}>
            {["one-time", "monthly"].map((p) => (
              <button
                type="button"
                role="tab"
                key={p}
                aria-selected={period === p}
                onClick={() => setPeriod(p)}
              >
                {t(p === "monthly" ? "donation.monthly" : "donation.oneTime")}
              </button>
            ))}
          </div>
        )}
        <fieldset className="tiers">
          <legend>{t("donation.choiceLegend")}</legend>
          {TIERS.map((tier) => (
            <label key={tier.id} className={choice === tier.id ? "tier selected" : "tier"}>
              <input type="radio" name="choice" checked={choice === tier.id} onChange={() => setChoice(tier.id)} />
              <span>{t("donation.tierName", { number: tier.id })}</span>
              <span>{money(tier.usd, "USD", i18n.language)} / {money(tier.nis, "ILS", i18n.language)}</span>
            </label>
          ))}
          <label>
            <input type="radio" name="choice" checked={choice === "other"} onChange={() => setChoice("other")} />
            {t("donation.otherAmount")}
          </label>
          {choice === "other" && (
            <div>
              <input
                inputMode="decimal"
                aria-label={t("donation.amount")}
                value={other.amount}
                onChange={(e) => setOther({ ...other, amount: e.target.value })}
              />
              <select
                aria-label={t("donation.currency")}
                value={other.currency}
                onChange={(e) => setOther({ ...other, currency: e.target.value })}
              >
                <option value="nis">{t("donation.nis")}</option>
                <option value="usd">{t("donation.dollars")}</option>
              </select>
            </div>
          )}
        </fieldset>
        <p className="tax-note">{t("donation.taxNote")}</p>
      </section>
      <section id="payment">
        <h2>{t("form.personalDetails")}</h2>
        {alert && <p className="form-alert" role="alert">{alert}</p>}
        {step === "frame"
          ? <iframe src={frame} title={t("payment.frameTitle")} height="500" width="100%" />
          : (
            <>
              {FIELDS.map((f) => (
                <div key={f} className="field">
                  <label htmlFor={`donor-${f}`}>{t(`form.${f}`)}</label>
                  <input
                    id={`donor-${f}`}
                    value={fields[f]}
                    aria-invalid={touched[f] && !!errors[f]}
                    onChange={(e) => setFields({ ...fields, [f]: e.target.value })}
                    onBlur={() => setTouched({ ...touched, [f]: true })}
                  />
                  {touched[f] && errors[f] && <p className="field-error">{errors[f]}</p>}
                </div>
              ))}
              <button className="donate-button" disabled={step === "loading"}>
                {step === "loading" ? t("payment.processing") : t("form.donate")}
              </button>
              {mode === "terminal" && flags.TEST_TERMINAL_PAYMENT && (
                <button type="button" onClick={() => signedPost("/api/payment/test-emv/1001", {})}>
                  {t("terminal.testTerminal")}
                </button>
              )}
            </>
          )}
      </section>
    </form>
  );
}
