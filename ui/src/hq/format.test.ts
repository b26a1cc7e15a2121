// @vitest-environment node
import { describe, expect, it } from "vitest";
import type { City, CountedTwice, RecallCity } from "@/hq/api";
import {
  MSG_SEARCH_LONG,
  MSG_SEARCH_SHORT,
  andWords,
  bannerText,
  copyStateWords,
  countedTwiceGroups,
  countedTwiceWords,
  durationWords,
  formatMoney,
  isFlagged,
  recallCityWords,
  searchError,
  serialFromInput,
} from "@/hq/format";
import { flaggedLines } from "@/hq/shell";

const city = (name: string, copy: Partial<City["copy"]>): City => ({
  id: name.toLowerCase(),
  name,
  timeZone: "Europe/Paris",
  currency: "EUR",
  replicaUrl: "file:///tmp/r",
  accessKeyIdSet: false,
  secretAccessKeySet: false,
  address: "https://x.example",
  tokenSet: true,
  copy: { state: "following", lagSeconds: 0, ...copy },
});

describe("durationWords", () => {
  it("says seconds as minutes, hours, days", () => {
    expect(durationWords(0)).toBe("under a minute");
    expect(durationWords(59)).toBe("under a minute");
    expect(durationWords(60)).toBe("1 minute");
    expect(durationWords(7 * 60 + 30)).toBe("7 minutes");
    expect(durationWords(3 * 3600)).toBe("3 hours");
    expect(durationWords(3 * 86400)).toBe("3 days");
    expect(durationWords(Number.NaN)).toBe("under a minute");
  });
});

describe("the behind banner", () => {
  it("names each flagged city in words, and none that is following", () => {
    expect(bannerText(city("Paris", { state: "behind", lagSeconds: 420 }))).toBe("Paris's data is 7 minutes behind.");
    // a silent replica: the replica's age is how far behind it may be
    expect(bannerText(city("Berlin", { state: "behind", lagSeconds: 0, replicaAgeSeconds: 600, warning: "No change on the replica for 10 minutes." }))).toBe(
      "Berlin's data is 10 minutes behind. No change on the replica for 10 minutes.",
    );
    expect(bannerText(city("Lisbon", { state: "restoring" }))).toMatch(/^Lisbon's copy is being restored/);
    expect(bannerText(city("Rome", { state: "failed", error: "the replica cannot be read" }))).toBe(
      "Rome's copy failed: the replica cannot be read. Its figures may be out of date.",
    );
    expect(bannerText(city("Rome", { state: "failed", error: "The replica directory does not exist." }))).toBe(
      "Rome's copy failed: The replica directory does not exist. Its figures may be out of date.",
    );
    expect(bannerText(city("Oslo", { state: "following", lagSeconds: 3 }))).toBe("");
    const lines = flaggedLines([city("Paris", { state: "behind", lagSeconds: 400 }), city("Oslo", {}), city("Rome", { state: "failed" })]);
    expect(lines.map((l) => l.id)).toEqual(["paris", "rome"]);
  });

  it("flags behind, failed and restoring copies; says each state in words", () => {
    expect(isFlagged(city("A", { state: "following" }).copy)).toBe(false);
    expect(isFlagged(city("A", { state: "behind" }).copy)).toBe(true);
    expect(copyStateWords(city("A", { state: "following", lagSeconds: 0 }).copy)).toBe("Up to date");
    expect(copyStateWords(city("A", { state: "following", lagSeconds: 125 }).copy)).toBe("Following, 2 minutes behind");
    expect(copyStateWords(city("A", { state: "behind", lagSeconds: 900 }).copy)).toBe("Behind by 15 minutes");
    expect(copyStateWords(city("A", { state: "stopped" }).copy)).toBe("Not followed");
  });
});

describe("formatMoney", () => {
  it("says cents in each city's own currency", () => {
    expect(formatMoney(123450, "EUR")).toBe("€1,234.50");
    expect(formatMoney(99, "GBP")).toBe("£0.99");
    expect(formatMoney(500000, "JPY")).toBe("¥5,000");
    expect(formatMoney(0, "USD")).toBe("$0.00");
  });
});

describe("the pack search", () => {
  it("reads a serial or a label URL, and refuses what the server would", () => {
    expect(serialFromInput("  PAR-000123 ")).toBe("PAR-000123");
    expect(serialFromInput("https://paris.example/p/PAR-000123")).toBe("PAR-000123");
    expect(serialFromInput("https://paris.example/p/PAR-000123/?src=qr")).toBe("PAR-000123");
    expect(searchError("PA")).toBe(MSG_SEARCH_SHORT);
    expect(searchError("https://paris.example/p/PA")).toBe(MSG_SEARCH_SHORT);
    expect(searchError("X".repeat(41))).toBe(MSG_SEARCH_LONG);
    expect(searchError("PAR")).toBe("");
  });
});

describe("recallCityWords", () => {
  const c = (p: Partial<RecallCity>): RecallCity => ({ id: "p", name: "Paris", send: "sent", attempts: 1, matching: 4, quarantined: 4, done: true, ...p });
  it("says sent / done / N packs quarantined, or why not", () => {
    expect(recallCityWords(c({}))).toBe("Sent · done · 4 of 4 packs quarantined");
    expect(recallCityWords(c({ quarantined: 1, done: false }))).toBe("Sent · in progress · 1 of 4 packs quarantined");
    expect(recallCityWords(c({ send: "pending", attempts: 0 }))).toBe("Waiting to be sent");
    expect(recallCityWords(c({ send: "pending", attempts: 2, error: "city unreachable" }))).toBe("Not sent yet (tried 2 times: city unreachable)");
    expect(recallCityWords(c({ send: "failed", error: "The city refused head office's token: issue a new one on its System page." }))).toBe(
      "Not sent: The city refused head office's token: issue a new one on its System page.",
    );
  });
  it("says a sent recall the city no longer has (restored from an older backup) in the server's words", () => {
    const lost = "The city no longer has this recall: it went back to a backup from before it. Send it again.";
    expect(recallCityWords(c({ lost: true, done: false, quarantined: 0, error: lost }))).toBe(lost);
    expect(recallCityWords(c({ lost: true, done: false, quarantined: 0 }))).toBe(lost);
  });
});

describe("packs counted in two cities", () => {
  const row = (serial: string, p: Partial<CountedTwice> = {}): CountedTwice => ({
    serial,
    cities: [
      { cityId: "ber", cityName: "Berlin", state: "in_service" },
      { cityId: "par", cityName: "Paris", state: "in_service" },
    ],
    receivedByCityId: "ber",
    receivedBy: "Berlin",
    fromCity: "Paris",
    ref: "t1",
    ...p,
  });
  it("says where each serial is counted, naming states that differ", () => {
    expect(andWords(["Paris"])).toBe("Paris");
    expect(andWords(["Paris", "Berlin", "Lisbon"])).toBe("Paris, Berlin and Lisbon");
    expect(countedTwiceWords(row("PAR-000123"))).toBe("in service in Berlin and in Paris (received by Berlin)");
    const mixed = row("PAR-000124", {
      cities: [
        { cityId: "ber", cityName: "Berlin", state: "in_service" },
        { cityId: "par", cityName: "Paris", state: "quarantined" },
      ],
    });
    expect(countedTwiceWords(mixed)).toBe("in service in Berlin and quarantined in Paris (received by Berlin)");
  });
  it("groups them by the cities involved, each with what to do", () => {
    const lisbon = row("LIS-000001", {
      cities: [
        { cityId: "ber", cityName: "Berlin", state: "maintenance" },
        { cityId: "lis", cityName: "Lisbon", state: "in_service" },
        { cityId: "par", cityName: "Paris", state: "in_service" },
      ],
      receivedByCityId: "par",
      receivedBy: "Paris",
    });
    const groups = countedTwiceGroups([row("PAR-000123"), lisbon, row("PAR-000124")]);
    expect(groups.map((g) => g.rows.map((r) => r.serial))).toEqual([["PAR-000123", "PAR-000124"], ["LIS-000001"]]);
    expect(groups.map((g) => g.advice)).toEqual([
      "Paris deleted or lost its send after Berlin received these packs. Count Paris's shelves (Packs → Stocktake): a pack not found there leaves its counts.",
      "Berlin and Lisbon still count these packs after Paris received them. Count each one's shelves (Packs → Stocktake): a pack not found there leaves its counts.",
    ]);
    expect(groups.map((g) => g.label)).toEqual(["Packs Berlin received that Paris still counts", "Packs Paris received that Berlin and Lisbon still count"]);
    expect(countedTwiceWords(lisbon)).toBe("in maintenance in Berlin, in service in Lisbon and in service in Paris (received by Paris)");
  });
});
