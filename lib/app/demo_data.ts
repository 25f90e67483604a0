/**
 * Realistic demo donors and transactions, deterministic for a seed: names in the scripts of all
 * five languages, tier and other amounts in both currencies, one-time and monthly gifts, and
 * declines with real status codes. Used by `deno task seed` and the API benchmark.
 *
 * @module
 */
import type { Transaction } from "@/lib/storage/types.ts";

const FIRST = [
  "Dana",
  "Noa",
  "Michael",
  "Sarah",
  "David",
  "Emma",
  "Liam",
  "Olivia", // en
  "נועה",
  "דוד",
  "מיכל",
  "יוסף",
  "תמר",
  "אורי",
  "שירה",
  "אביגיל", // he
  "Иван",
  "Мария",
  "Алексей",
  "Ольга",
  "Дмитрий",
  "Анна",
  "Сергей",
  "Елена", // ru
  "João",
  "Ana",
  "Pedro",
  "Mariana",
  "Lucas",
  "Beatriz",
  "Rafael",
  "Camila", // pt
  "Lucía",
  "Mateo",
  "Sofía",
  "Javier",
  "Valentina",
  "Diego",
  "Carmen",
  "Pablo", // es
];
const LAST = [
  "Levi",
  "Cohen",
  "Smith",
  "Brown",
  "Miller",
  "Wilson",
  "Taylor",
  "Clark",
  "כהן",
  "לוי",
  "מזרחי",
  "פרץ",
  "ביטון",
  "אברהם",
  "פרידמן",
  "שפירא",
  "Иванов",
  "Петрова",
  "Смирнов",
  "Кузнецова",
  "Попов",
  "Соколова",
  "Лебедев",
  "Новикова",
  "Silva",
  "Santos",
  "Oliveira",
  "Souza",
  "Pereira",
  "Costa",
  "Rodrigues",
  "Almeida",
  "García",
  "Martínez",
  "López",
  "Sánchez",
  "Pérez",
  "Gómez",
  "Fernández",
  "Díaz",
];
const DOMAINS = ["example.org", "example.co.il", "example.ru", "example.com.br", "example.es"];
const DECLINES: [string, string][] = [
  ["003", "Declined; call the card issuer for authorization"],
  ["004", "Declined by the card issuer"],
  ["006", "ID number or CVV is wrong"],
  ["033", "The card number is invalid"],
  ["039", "The card number is invalid"],
  ["057", "The ID number is missing"],
  ["036", "The card has expired"],
];
/** Tier prices in major units: [USD, NIS]. */
const TIERS: [number, number][] = [[5, 20], [25, 100], [50, 200], [100, 400]];

/** A small deterministic PRNG (mulberry32), so a seed always gives the same data. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const id = (rand: () => number) =>
  Array.from(
    { length: 24 },
    () => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[Math.floor(rand() * 64)],
  )
    .join("");

/**
 * Generates `count` transactions, oldest first, spread evenly from `from` to `to`; 80% succeed.
 *
 * @example
 * ```ts
 * for (const tx of demoTransactions(200, { seed: 1 })) await store.transactions.record(tx);
 * ```
 */
export function* demoTransactions(
  count: number,
  options: { seed?: number; from?: Date; to?: Date } = {},
): Generator<Transaction> {
  const rand = random(options.seed ?? 1);
  const to = (options.to ?? new Date()).getTime();
  const from = (options.from ?? new Date(to - 60 * 86_400_000)).getTime();
  const step = count > 1 ? (to - from) / (count - 1) : 0;
  for (let i = 0; i < count; i++) {
    const group = Math.floor(rand() * 5);
    const firstName = FIRST[group * 8 + Math.floor(rand() * 8)];
    const lastName = LAST[group * 8 + Math.floor(rand() * 8)];
    const email = `donor${Math.floor(rand() * 1e6)}@${DOMAINS[group]}`;
    const currency: 1 | 2 = rand() < 0.6 ? 1 : 2;
    const tier = TIERS[Math.floor(rand() * TIERS.length)];
    const major = rand() < 0.8 ? tier[currency === 1 ? 1 : 0] : 1 + Math.floor(rand() * 999);
    const amount = major * 100;
    const success = rand() < 0.8;
    const isMonthly = rand() < 0.3;
    const [code, message] = DECLINES[Math.floor(rand() * DECLINES.length)];
    const last4 = String(1000 + Math.floor(rand() * 9000));
    yield {
      id: id(rand),
      kind: success ? "success" : "error",
      statusCode: success ? "000" : code,
      isMonthly,
      createdAt: new Date(Math.round(from + i * step)).toISOString(),
      donorId: id(rand),
      user: { firstName, lastName, email },
      amount,
      currency,
      resultData: success
        ? {
          CreditCardNumber: `${["4580", "5326", "3755"][Math.floor(rand() * 3)]}********${last4}`.slice(
            0,
            16,
          ),
          CreditType: rand() < 0.9 ? "1" : "8",
          DebitTotal: String(amount),
          DebitCurrency: currency,
          VoucherId: String(10000000 + Math.floor(rand() * 89999999)),
          ShvaResult: "000",
        }
        : null,
      errorMessage: success ? null : message,
      provider: "demo",
      providerTransactionId: `demo-${options.seed ?? 1}-${i}`,
    };
  }
}
