import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";

export function CancelPage() {
  const { t } = useTranslation();
  const [query] = useSearchParams();
  const [state, setState] = useState("idle");
  const id = query.get("id");
  async function cancel() {
    setState("busy");
    const res = await fetch(`/api/user/off-monthly-payment/${id}`, { method: "PATCH" });
    setState(res.ok ? "done" : "failed");
  }
  return (
    <section>
      <h1>{t("pages.cancelSubscription")}</h1>
      {state === "done" ? <p role="status">✓</p> : (
        <button onClick={cancel} disabled={!id || state === "busy"}>
          {t("pages.cancelSubscription")}
        </button>
      )}
      {state === "failed" && <p role="alert">{t("payment.defaultError")}</p>}
    </section>
  );
}
