import { PageTitle } from "../../../components/PageTitle.tsx";
import type { PageProps } from "../../../lib/framework/mod.ts";
import type { AppState } from "../../../lib/state.ts";

/** The terminal error page of a shop. */
export default function Page({ state }: PageProps<unknown, AppState>) {
  return <PageTitle title={state.t("pages.terminalError")} siteName={state.t("meta.siteName")} />;
}
