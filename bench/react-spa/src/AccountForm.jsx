import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";

export function AccountForm({ kind }) {
  const { t } = useTranslation();
  const { lang } = useParams();
  const navigate = useNavigate();
  const [form, setForm] = useState({ name: "", email: "", password: "" });
  const [error, setError] = useState(null);
  async function submit(e) {
    e.preventDefault();
    const res = await fetch(`/api/auth/admin/${kind}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(form),
    });
    const json = await res.json();
    if (!res.ok) return setError(json.message);
    localStorage.setItem("accessToken", json.accessToken);
    localStorage.setItem("refreshToken", json.refreshToken);
    navigate(`/${lang}/admin`);
  }
  const fields = kind === "register" ? ["name", "email", "password"] : ["email", "password"];
  return (
    <form onSubmit={submit}>
      <h1>{t(kind === "login" ? "pages.login" : "pages.register")}</h1>
      {fields.map((f) => (
        <label key={f}>
          {f}
          <input
            type={f === "password" ? "password" : f === "email" ? "email" : "text"}
            value={form[f]}
            onChange={(e) => setForm({ ...form, [f]: e.target.value })}
          />
        </label>
      ))}
      {error && <p role="alert">{error}</p>}
      <button>{t(kind === "login" ? "pages.login" : "pages.register")}</button>
    </form>
  );
}
