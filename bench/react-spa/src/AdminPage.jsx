import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useParams, useSearchParams } from "react-router";
import { adminFetch } from "./api.js";

export function AdminPage() {
  const { t, i18n } = useTranslation();
  const { lang } = useParams();
  const [query, setQuery] = useSearchParams();
  const [rows, setRows] = useState({ items: [], total: 0 });
  const [unauthorized, setUnauthorized] = useState(!localStorage.getItem("accessToken"));
  const type = query.get("type") ?? "success";
  const page = Number(query.get("page") ?? 1);
  const search = query.get("search") ?? "";
  useEffect(() => {
    if (unauthorized) return;
    const path = type === "success" ? "get-all-success-transactions" : "get-all-error-transactions";
    adminFetch(`/api/transaction/${path}?page=${page}&limit=10&searchString=${encodeURIComponent(search)}`)
      .then(setRows, () => setUnauthorized(true));
  }, [type, page, search, unauthorized]);
  if (unauthorized) return <Navigate to={`/${lang}/login`} replace />;
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  const set = (k, v) => setQuery((q) => (q.set(k, v), k !== "page" && q.set("page", "1"), q));
  return (
    <section>
      <h1>{t("transactions.title")}</h1>
      <div role="tablist">
        {["success", "error"].map((k) => (
          <button key={k} role="tab" aria-selected={type === k} onClick={() => set("type", k)}>{k}</button>
        ))}
      </div>
      <input type="search" value={search} onChange={(e) => set("search", e.target.value)} />
      <table>
        <tbody>
          {rows.items.map((r) => (
            <tr key={r.id}>
              <td>{date.format(new Date(r.createdAt))}</td>
              <td>{r.firstName} {r.lastName}</td>
              <td>{r.email}</td>
              <td>{r.amount / 100} {r.currency}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav>
        <button disabled={page <= 1} onClick={() => set("page", String(page - 1))}>‹</button>
        <span>{page} / {Math.max(1, Math.ceil(rows.total / 10))}</span>
        <button disabled={page * 10 >= rows.total} onClick={() => set("page", String(page + 1))}>›</button>
      </nav>
    </section>
  );
}
