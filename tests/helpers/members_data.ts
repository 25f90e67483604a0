/**
 * Members for the back office's Members section (issue 27, item 8): a membership in every state
 * (active, expiring soon, in grace, lapsed, a monthly one in grace while billing retries), at
 * several levels, with Hebrew and long names, a household's cardholders and emails sent. Every
 * date is from `now`, so the same `now` gives the same pages.
 *
 * @module
 */
import type { Membership, MembershipTerm, Store } from "@/lib/storage/types.ts";
import { donorFixture, subscriptionFixture } from "@/tests/storage/fixtures.ts";

const DAY = 86_400_000;

/** One seeded member: the name the donor record carries, its address, level, end (days from now). */
export interface SeededMember {
  firstName: string;
  lastName: string;
  email: string;
  levelId: number;
  /** Days from now to the end of its last term (negative: ended). */
  endDays: number;
  number: string;
  cardholders?: string[];
  /** A monthly gift retrying a declined charge pays it. */
  retrying?: boolean;
}

/** The members {@link seedMembers} stores, numbers fixed (valid check characters). */
export const MEMBERS: readonly SeededMember[] = [
  {
    firstName: "Ada",
    lastName: "Levi",
    email: "ada.levi@example.org",
    levelId: 2,
    endDays: 200,
    number: "1000-001E",
  },
  {
    firstName: "Noam",
    lastName: "Cohen",
    email: "noam.cohen@example.org",
    levelId: 1,
    endDays: 10,
    number: "1000-002V",
  },
  {
    firstName: "רותם",
    lastName: "בן-דוד",
    email: "rotem.ben-david@example.org",
    levelId: 3,
    endDays: 300,
    number: "1000-0038",
    cardholders: ["רותם בן-דוד", "Yael Ben-Dvid"],
  },
  {
    firstName: "Boris",
    lastName: "Ivanov",
    email: "boris.ivanov@example.org",
    levelId: 1,
    endDays: -60,
    number: "1000-004N",
  },
  {
    firstName: "Dana",
    lastName: "Mizrahi",
    email: "dana.mizrahi@example.org",
    levelId: 2,
    endDays: -5,
    number: "1000-0052",
  },
  {
    firstName: "Maximiliana-Alexandra",
    lastName: "Konstantinopoulou-Vanderbilt",
    email: "maximiliana.konstantinopoulou@department-of-antiquities.example.org",
    levelId: 4,
    endDays: 25,
    number: "1000-006F",
  },
  {
    firstName: "Tamar",
    lastName: "Shapiro",
    email: "tamar.shapiro@example.org",
    levelId: 2,
    endDays: -4,
    number: "1000-007W",
    retrying: true,
  },
];

/**
 * Stores {@link MEMBERS} (their donor records, memberships, a retrying monthly gift, a receipt email
 * to the first) as of `now`; answers the memberships stored, in {@link MEMBERS}' order.
 *
 * @example
 * ```ts
 * const members = await seedMembers(store, new Date());
 * ```
 */
export async function seedMembers(store: Store, now: Date): Promise<Membership[]> {
  const t = now.getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  const made: Membership[] = [];
  for (const [i, m] of MEMBERS.entries()) {
    const donor = await store.donors.create(donorFixture({
      firstName: m.firstName,
      lastName: m.lastName,
      email: m.email,
      createdAt: iso(t - 800 * DAY),
    }));
    const subscriptionId = m.retrying ? `sub-member-${i}` : null;
    if (m.retrying) {
      await store.subscriptions.create(subscriptionFixture({
        id: subscriptionId!,
        donorId: donor.id,
        amount: 10_000,
        currency: 1,
        createdAt: iso(t - 400 * DAY),
        nextPaymentDate: iso(t + m.endDays * DAY),
        failedAttempts: 2,
        retryAt: iso(t + 2 * DAY),
      }));
    }
    const end = t + m.endDays * DAY;
    const term = (
      levelId: number,
      from: number,
      to: number,
      kind: MembershipTerm["kind"],
    ): MembershipTerm => ({
      levelId,
      start: iso(from),
      end: iso(to),
      kind,
      transactionId: `member-tx-${i}-${kind}`,
      subscriptionId,
      amount: 10_000 * levelId,
      currency: 1,
      charges: 1,
    });
    // Two terms: joined at level 1 (or its own), renewed at its level up to its end.
    const terms = [
      term(Math.max(1, m.levelId - 1), end - 730 * DAY, end - 365 * DAY, "join"),
      term(m.levelId, end - 365 * DAY, end, m.levelId > 1 ? "upgrade" : "renewal"),
    ];
    const stored = await store.memberships.change({
      email: m.email,
      apply: () => ({
        number: m.number,
        donorId: donor.id,
        subscriptionId,
        terms,
        cardholders: m.cardholders,
      }),
    }, iso(end - 730 * DAY));
    made.push(stored!);
    if (i === 0) {
      await store.outbox.enqueue([{
        key: `receipt:member-tx-${i}`,
        kind: "receipt",
        to: { donorId: donor.id },
        language: "en",
        data: { transactionId: `member-tx-${i}-renewal` },
      }], iso(end - 365 * DAY));
    }
  }
  return made;
}
