import { AccountPage } from "@/components/AccountPage.tsx";
import type { PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/** `/{lang}/register`: admin registration (spec section 2). */
export default function Page({ state }: PageProps<unknown, AppState>) {
  return <AccountPage lang={state.lang} t={state.t} mode="register" />;
}
