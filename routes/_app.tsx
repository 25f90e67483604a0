import { asset, HeadOutlet, type LayoutProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";
import { museumStylesheetHref } from "@/lib/museum/theme.ts";

/** The document shell: language and direction on `<html>`, the stylesheet, the page's head. */
export default function App({ Component, state }: LayoutProps<AppState>) {
  const { t, lang, dir } = state;
  // The museum's brand colours over the stylesheet's, once an owner has set them.
  const theme = museumStylesheetHref(state.museum);
  return (
    <html lang={lang} dir={dir}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="description" content={t("meta.description")} />
        <link rel="stylesheet" href={asset("/styles.css")} />
        {theme && <link rel="stylesheet" href={theme} />}
        <link rel="icon" type="image/svg+xml" href={asset("/favicon.svg")} />
        <HeadOutlet fallbackTitle={t("meta.siteName")} />
      </head>
      <body>
        <Component />
      </body>
    </html>
  );
}
