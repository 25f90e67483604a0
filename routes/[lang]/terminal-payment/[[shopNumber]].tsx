import { PageTitle } from "../../../components/PageTitle.tsx";
import type { PageProps } from "../../../lib/framework/mod.ts";
import type { AppState } from "../../../lib/state.ts";

/** The donation page in terminal (kiosk) mode for one shop. */
export default function Page({ state }: PageProps<unknown, AppState>) {
  return <PageTitle title={state.t("pages.terminalPayment")} siteName={state.t("meta.siteName")} />;
}
