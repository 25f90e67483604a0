/**
 * The donor portal's privacy views (`/{lang}/account`, issue 15): on the signed-in page, the
 * downloads of a year's receipts and of the donor's data and the way to erasure; the erasure's
 * confirmation form and its answer; and the page a refused download shows. Plain links and forms:
 * everything works without JavaScript.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import type { TFunction } from "@/lib/core/i18n.ts";
import { ERASURE_CONFIRMATION } from "@/lib/donor_portal/erasure.ts";
import { PageTitle } from "./PageTitle.tsx";

/** The signed-in page's section: receipts by year, the data download, erasure. */
export function PrivacySection(props: { t: TFunction; lang: string; receiptYears: number[] }) {
  const { t, lang } = props;
  return (
    <>
      <section class="user-info" aria-labelledby="privacy-receipts-title">
        <h2 id="privacy-receipts-title">{t("portalPrivacy.receiptsTitle")}</h2>
        {props.receiptYears.length === 0
          ? <p>{t("portalPrivacy.noReceiptYears")}</p>
          : (
            <ul class="receipt-years">
              {props.receiptYears.map((year) => (
                <li key={year}>
                  <a href={`/${lang}/account/receipts/${year}`} download>
                    {t("portalPrivacy.receiptsOfYear", { year })}
                  </a>
                </li>
              ))}
            </ul>
          )}
      </section>
      <section class="user-info" aria-labelledby="privacy-data-title">
        <h2 id="privacy-data-title">{t("portalPrivacy.dataTitle")}</h2>
        <p>{t("portalPrivacy.dataIntro")}</p>
        <p>
          <a class="button" href={`/${lang}/account/data`} download>{t("portalPrivacy.export")}</a>
        </p>
        <p>
          <a href={`/${lang}/account/erase`}>{t("portalPrivacy.eraseLink")}</a>
        </p>
      </section>
    </>
  );
}

function Frame(props: { t: TFunction; children: ComponentChildren }) {
  return (
    <section class="cancel account">
      <PageTitle title={props.t("portalPrivacy.erase.title")} siteName={props.t("meta.siteName")} />
      {props.children}
    </section>
  );
}

/** The erasure's confirmation form (`/{lang}/account/erase`), with its error when not confirmed. */
export function EraseConfirm(
  props: { t: TFunction; lang: string; email: string; notConfirmed: boolean; unfinished?: boolean },
) {
  const { t, lang } = props;
  return (
    <Frame t={t}>
      <p>
        {t("portalPrivacy.erase.intro")} <bdi dir="ltr">{props.email}</bdi>
      </p>
      <ul>
        <li>{t("portalPrivacy.erase.monthly")}</li>
        <li>{t("portalPrivacy.erase.kept")}</li>
        <li>{t("portalPrivacy.erase.emails")}</li>
      </ul>
      {props.notConfirmed && (
        <p class="form-alert" role="alert" id="erase-confirm-error">
          {t("portalPrivacy.erase.confirmRequired")}
        </p>
      )}
      {props.unfinished && <p class="form-alert" role="alert">{t("portalPrivacy.erase.unfinished")}</p>}
      <form method="post" action={`/${lang}/account/erase`}>
        <div class="checkbox-field">
          <input
            id="erase-confirm"
            name="confirm"
            type="checkbox"
            value={ERASURE_CONFIRMATION}
            required
            aria-invalid={props.notConfirmed ? "true" : undefined}
            aria-describedby={props.notConfirmed ? "erase-confirm-error" : undefined}
          />
          <label for="erase-confirm">{t("portalPrivacy.erase.confirmLabel")}</label>
        </div>
        <button type="submit" class="button button-primary">{t("portalPrivacy.erase.submit")}</button>
      </form>
      <p>
        <a href={`/${lang}/account`}>{t("portalPrivacy.back")}</a>
      </p>
    </Frame>
  );
}

/** The answer to an erasure. */
export function EraseDone(props: { t: TFunction }) {
  return (
    <Frame t={props.t}>
      <p class="notice-success" role="status">{props.t("portalPrivacy.erase.done")}</p>
    </Frame>
  );
}

/** Why a year's receipts could not be downloaded. */
export type DownloadProblem = "noReceipts" | "tooMany" | "busy" | "inProgress" | "limited";

/** The page a refused download shows. */
export function DownloadRefused(
  props: { t: TFunction; lang: string; problem: DownloadProblem; year: string; minutes?: number },
) {
  const { t } = props;
  return (
    <section class="cancel account">
      <PageTitle title={t("portalPrivacy.receiptsTitle")} siteName={t("meta.siteName")} />
      <p class="form-alert" role="alert">
        {t(`portalPrivacy.problem.${props.problem}`, { year: props.year, minutes: props.minutes })}
      </p>
      <p>
        <a href={`/${props.lang}/account`}>{t("portalPrivacy.back")}</a>
      </p>
    </section>
  );
}
