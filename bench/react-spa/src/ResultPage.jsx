import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams, useSearchParams } from "react-router";

export function ResultPage({ kind, terminal }) {
  const { t } = useTranslation();
  const [query] = useSearchParams();
  const { lang, shopNumber } = useParams();
  const navigate = useNavigate();
  const [record, setRecord] = useState(null);
  const [progress, setProgress] = useState(0);
  useEffect(() => {
    const id = [...query.entries()].find(([k]) => k.endsWith("TransactionId"))?.[1];
    if (id) fetch(`/api/transaction/${encodeURIComponent(id)}`).then((r) => r.json()).then(setRecord);
  }, [query]);
  useEffect(() => {
    const start = Date.now();
    const timer = setInterval(() => {
      const p = Math.min(1, (Date.now() - start) / 7000);
      setProgress(p);
      if (p === 1) navigate(terminal ? `/${lang}/terminal-payment/${shopNumber ?? ""}` : `/${lang}/`);
    }, 100);
    return () => clearInterval(timer);
  }, []);
  return (
    <section className={`result ${kind}`}>
      <h1>{t(kind === "success" ? "transactionSuccess.title" : "transactionError.title")}</h1>
      {record && <p>{record.amount} {record.currency}</p>}
      <progress value={progress} max={1} />
    </section>
  );
}
