import { useEffect, useState } from "preact/hooks";
import { listFailure } from "@/islands/shared/account_forms.ts";
import type { ApiClient } from "@/islands/shared/admin_api.ts";
import { useDates } from "@/islands/shared/dates.tsx";
import { messageText, type Translate } from "@/islands/shared/texts.ts";
import { DataTable } from "./DataTable.tsx";
import { FilterNotice, useQueryParam } from "./list_filter.tsx";

/** A device as `GET /api/kiosk-devices` lists it (`lib/kiosk/schemas.ts`). */
export interface KioskDeviceItem {
  id: string;
  name: string;
  shopNumber: string;
  terminalId: string;
  paired: boolean;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A pairing code as the API answers it, once, with the device it is for. */
interface Pairing {
  name: string;
  code: string;
  url: string;
  expiresAt: string;
}

/**
 * The back office's kiosk devices (issue 13): only a paired kiosk can start card sales. Lists the
 * devices (name, shop, terminal, paired or not, last use), creates one (name and shop) and shows
 * its one-time pairing code and link, issues a new code (re-pairing) and revokes. Loads once
 * `ready` (the server has confirmed the admin is approved); each change is announced. With
 * `?unseen=true` in the page's query (the overview's link), only the paired kiosks not seen for a day.
 */
export function KioskDevices(
  props: { api: ApiClient; t: Translate; lang: string; ready: boolean; search?: string },
) {
  const { api, t, lang, ready } = props;
  // `?unseen=true` (the overview's link): only the paired kiosks not seen for a day.
  const asked = useQueryParam(props.search, "unseen");
  const unseen = asked === "true";
  const dates = useDates();
  const [devices, setDevices] = useState<KioskDeviceItem[] | null>(null);
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);
  const [pairing, setPairing] = useState<Pairing | null>(null);
  const [name, setName] = useState("");
  const [shop, setShop] = useState("");

  const fail = (error: unknown) =>
    setNotice(t("transactions.errorPrefix") + messageText(t, listFailure(error)));
  const load = () =>
    api.request<KioskDeviceItem[]>(`/api/kiosk-devices${unseen ? "?unseen=true" : ""}`).then(setDevices)
      .catch(fail);
  useEffect(() => {
    if (ready && asked !== undefined) load();
  }, [ready, asked]);

  async function act(run: () => Promise<string>) {
    setBusy(true);
    try {
      setNotice(await run());
      await load();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  }

  const create = (e: Event) => {
    e.preventDefault();
    act(async () => {
      const answer = await api.request<{ device: KioskDeviceItem; pairing: Omit<Pairing, "name"> }>(
        "/api/kiosk-devices",
        { method: "POST", body: JSON.stringify({ name, shopNumber: shop.trim(), language: lang }) },
      );
      setPairing({ ...answer.pairing, name: answer.device.name });
      setName("");
      setShop("");
      return t("kiosk.createdNotice", { name: answer.device.name });
    });
  };
  const repair = (device: KioskDeviceItem) =>
    act(async () => {
      const answer = await api.request<Omit<Pairing, "name">>(
        `/api/kiosk-devices/${encodeURIComponent(device.id)}/pairing-code`,
        { method: "POST", body: JSON.stringify({ language: lang }) },
      );
      setPairing({ ...answer, name: device.name });
      return t("kiosk.pairingFor", { name: device.name });
    });
  const revoke = (device: KioskDeviceItem) => {
    if (!confirm(t("kiosk.confirmRevoke", { name: device.name }))) return;
    act(async () => {
      await api.request(`/api/kiosk-devices/${encodeURIComponent(device.id)}/revoke`, { method: "POST" });
      if (pairing?.name === device.name) setPairing(null);
      return t("kiosk.revokedNotice", { name: device.name });
    });
  };

  const status = (d: KioskDeviceItem) =>
    d.revokedAt
      ? <span class="badge badge-error">{t("kiosk.revoked")}</span>
      : d.paired
      ? <span class="badge badge-success">{t("kiosk.paired")}</span>
      : <span class="badge">{t("kiosk.notPaired")}</span>;

  return (
    <section class="kiosk-devices" aria-labelledby="kiosk-devices-title">
      <h2 id="kiosk-devices-title">{t("kiosk.devicesTitle")}</h2>
      <p>{t("kiosk.devicesIntro")}</p>
      {unseen && <FilterNotice t={t} text={t("overview.filter.kiosksUnseen")} />}
      <p class="kiosk-notice" role="status">{notice}</p>
      {pairing && (
        <div class="kiosk-pairing" aria-labelledby="kiosk-pairing-title">
          <h3 id="kiosk-pairing-title">{t("kiosk.pairingFor", { name: pairing.name })}</h3>
          <p class="kiosk-code" dir="ltr">
            <code>{pairing.code}</code>
          </p>
          <p>
            {t("kiosk.pairingLinkLabel")}:{" "}
            <a href={pairing.url} dir="ltr" class="kiosk-link">{pairing.url}</a>
          </p>
          <p>{t("kiosk.pairingHelp", { time: dates.dateTime(pairing.expiresAt) ?? "" })}</p>
        </div>
      )}
      <form class="kiosk-create" onSubmit={create}>
        <div class="field">
          <label for="kiosk-name">{t("kiosk.name")}</label>
          <input
            id="kiosk-name"
            required
            maxLength={60}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="kiosk-shop">{t("kiosk.shop")}</label>
          <input
            id="kiosk-shop"
            required
            maxLength={32}
            pattern="[A-Za-z0-9_\-]{1,32}"
            dir="ltr"
            value={shop}
            onInput={(e) => setShop(e.currentTarget.value)}
          />
        </div>
        <button type="submit" class="button button-primary" disabled={busy || !ready}>
          {t("kiosk.create")}
        </button>
      </form>
      <DataTable
        id="kiosk-devices-caption"
        class="kiosk-table"
        caption={t("kiosk.devicesTitle")}
        columns={["name", "shop", "terminal", "status", "lastUse", "actions"].map((c) => t(`kiosk.${c}`))}
        rows={devices}
        row={(d) => (
          <tr key={d.id}>
            <th scope="row">{d.name}</th>
            <td>
              <span dir="ltr">{d.shopNumber}</span>
            </td>
            <td>
              <span dir="ltr">{d.terminalId}</span>
            </td>
            <td>{status(d)}</td>
            <td>{dates.dateTime(d.lastUsedAt) ?? t("kiosk.never")}</td>
            <td>
              {!d.revokedAt && (
                <div class="approval-actions">
                  <button
                    type="button"
                    class="button button-outline"
                    disabled={busy}
                    aria-label={t("kiosk.repairName", { name: d.name })}
                    onClick={() => repair(d)}
                  >
                    {t("kiosk.repair")}
                  </button>
                  <button
                    type="button"
                    class="button button-outline"
                    disabled={busy}
                    aria-label={t("kiosk.revokeName", { name: d.name })}
                    onClick={() => revoke(d)}
                  >
                    {t("kiosk.revoke")}
                  </button>
                </div>
              )}
            </td>
          </tr>
        )}
        empty={t("kiosk.none")}
      />
    </section>
  );
}
