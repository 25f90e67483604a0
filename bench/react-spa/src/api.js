// Signed calls with a short-lived browser key, as the spec asks.
let key = null;

async function signingKey() {
  if (key && key.expiresAt - Date.now() > 60_000) return key;
  key = await (await fetch("/api/signing-key")).json();
  return key;
}

function hex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function signedPost(path, payload) {
  const k = await signingKey();
  const full = { ...payload, keyId: k.keyId, timestamp: Date.now(), nonce: crypto.randomUUID() };
  const text = Object.keys(full).filter((x) => full[x] !== undefined).sort().map((x) => `${x}=${String(full[x])}`)
    .join("&");
  const raw = new Uint8Array(k.key.match(/../g).map((h) => parseInt(h, 16)));
  const cryptoKey = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signature = hex(await crypto.subtle.sign("HMAC", cryptoKey, new TextEncoder().encode(text)));
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...full, signature }),
  });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error(json?.message);
  return json;
}

export async function adminFetch(path) {
  const res = await fetch(path, { headers: { authorization: `Bearer ${localStorage.getItem("accessToken")}` } });
  if (res.status === 401) throw new Error("unauthorized");
  return res.json();
}
