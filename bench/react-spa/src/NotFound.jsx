import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";

export function NotFound() {
  const { t } = useTranslation();
  const { lang } = useParams();
  return (
    <section>
      <h1>{t("notFound.title")}</h1>
      <Link to={`/${lang}/`}>{t("notFound.backHome")}</Link>
    </section>
  );
}
