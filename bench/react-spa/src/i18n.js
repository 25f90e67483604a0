import i18next from "i18next";
import { initReactI18next } from "react-i18next";
// The site's real English strings in the bundle; other languages load when chosen.
import en from "../../../locales/en.json";

const loaders = {
  he: () => import("../../../locales/he.json"),
  ru: () => import("../../../locales/ru.json"),
  pt: () => import("../../../locales/pt.json"),
  es: () => import("../../../locales/es.json"),
};

i18next.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: "en",
  fallbackLng: "en",
  interpolation: { escapeValue: false },
});

export async function useLanguage(lang) {
  if (lang !== "en" && !i18next.hasResourceBundle(lang, "translation")) {
    const mod = await loaders[lang]();
    i18next.addResourceBundle(lang, "translation", mod.default);
  }
  await i18next.changeLanguage(lang);
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === "he" ? "rtl" : "ltr";
}
