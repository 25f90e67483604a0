import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router";
import { useLanguage } from "./i18n.js";

const LANGS = [["en", "English"], ["he", "עברית"], ["ru", "Русский"], ["pt", "Português"], ["es", "Español"]];

export function Layout({ lang, children }) {
  const { t } = useTranslation();
  const [ready, setReady] = useState(lang === "en");
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    useLanguage(lang).then(() => setReady(true));
  }, [lang]);
  const [top, setTop] = useState(false);
  useEffect(() => {
    const onScroll = () => setTop(window.scrollY > 400);
    addEventListener("scroll", onScroll, { passive: true });
    return () => removeEventListener("scroll", onScroll);
  }, []);
  if (!ready) return null;
  return (
    <>
      <a className="skip-link" href="#main">{t("header.skipToContent")}</a>
      <header className="site-header">
        <Link className="logo" to={`/${lang}/`}>
          <img src="/logo.svg" alt="" width="40" height="40" />
          <span>{t("welcome.museumTitle")}</span>
        </Link>
        <label>
          {t("header.languageSelector")}
          <select
            value={lang}
            onChange={(e) => {
              localStorage.setItem("lang", e.target.value);
              navigate(location.pathname.replace(/^\/[^/]+/, `/${e.target.value}`) + location.search);
            }}
          >
            {LANGS.map(([code, name]) => <option key={code} value={code}>{name}</option>)}
          </select>
        </label>
      </header>
      <main id="main" tabIndex={-1}>{children}</main>
      {top && (
        <button className="scroll-top" onClick={() => scrollTo({ top: 0, behavior: "smooth" })}>
          {t("scrollToTop.label")}
        </button>
      )}
    </>
  );
}
