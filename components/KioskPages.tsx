/**
 * The kiosk pairing pages' parts (issue 13, "kiosks only from kiosks"): the pairing form of
 * `/{lang}/kiosk-pair`, and what the kiosk page (`/{lang}/terminal-payment/{shop}`) shows instead
 * of its form when the browser is not a paired kiosk for the shop, as it opens or after its
 * no-JavaScript form was refused. Plain HTML: both work without JavaScript.
 *
 * @module
 */
import type { TFunction } from "@/lib/core/i18n.ts";
import type { DeviceRefusal } from "@/lib/kiosk/errors.ts";

/** The pairing form: the code (prefilled from the link), one button. */
export function KioskPairForm(props: {
  t: TFunction;
  lang: string;
  code: string;
  error: boolean;
  paired: { name: string; shopNumber: string } | null;
}) {
  const { t, lang } = props;
  return (
    <section class="kiosk-pair" aria-labelledby="kiosk-pair-title">
      <h2 id="kiosk-pair-title">{t("kiosk.pairHeading")}</h2>
      {props.paired && (
        <p class="kiosk-paired" role="status">
          {t("kiosk.pairedAs", { name: props.paired.name, shop: props.paired.shopNumber })}{" "}
          <a href={`/${lang}/terminal-payment/${encodeURIComponent(props.paired.shopNumber)}`}>
            {t("kiosk.openKiosk")}
          </a>
        </p>
      )}
      <p>{t("kiosk.pairIntro")}</p>
      {props.error && <p class="form-alert" role="alert" id="kiosk-code-error">{t("kiosk.codeInvalid")}</p>}
      <form method="post" action={`/${lang}/kiosk-pair`} class="kiosk-pair-form">
        <div class="field">
          <label for="kiosk-code">{t("kiosk.codeLabel")}</label>
          <input
            id="kiosk-code"
            name="code"
            type="text"
            dir="ltr"
            required
            maxLength={64}
            autoComplete="off"
            autoCapitalize="characters"
            spellcheck={false}
            value={props.code}
            aria-invalid={props.error ? "true" : undefined}
            aria-describedby={props.error ? "kiosk-code-error" : undefined}
          />
        </div>
        <button type="submit" class="button button-primary">{t("kiosk.pairButton")}</button>
      </form>
    </section>
  );
}

/**
 * Why a kiosk may not take card payments, and how staff pair it. `sale`: a sale was just refused
 * (an alert, and a way back to the kiosk page); otherwise the page was opened, and this is what it
 * says, to staff, in place of its form.
 */
export function KioskRefusal(
  props: { t: TFunction; lang: string; reason: DeviceRefusal; shopNumber: string; sale: boolean },
) {
  const { t, lang } = props;
  return (
    <section class="kiosk-refusal" aria-labelledby="kiosk-refusal-title">
      <h2 id="kiosk-refusal-title">{t("kiosk.refusedTitle")}</h2>
      <p class="form-alert" role={props.sale ? "alert" : undefined}>{t(`kiosk.refused.${props.reason}`)}</p>
      <p>{t("kiosk.howToPair", { shop: props.shopNumber })}</p>
      <p>
        <a class="button button-primary" href={`/${lang}/kiosk-pair`}>{t("kiosk.pairLink")}</a>
        {props.sale && (
          <>
            {" "}
            <a href={`/${lang}/terminal-payment/${encodeURIComponent(props.shopNumber)}`}>
              {t("kiosk.backToKiosk")}
            </a>
          </>
        )}
      </p>
    </section>
  );
}
