// @vitest-environment node
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api-client";
import {
  MSG_ADDRESS,
  MSG_CURRENCY,
  MSG_NAME_REQUIRED,
  MSG_REPLICA_FORM,
  MSG_REPLICA_REQUIRED,
  MSG_TIME_ZONE,
  MSG_TOKEN_CHARACTERS,
  MSG_TOKEN_REQUIRED,
  citySchema,
  cityValues,
  refusedField,
} from "@/hq/city-form";
import { MSG_REASON_REQUIRED, MSG_VALUE_REQUIRED, recallSchema } from "@/hq/recall-form";

const good = {
  name: "Paris",
  timeZone: "Europe/Paris",
  currency: "eur",
  replicaUrl: "file:///srv/paris-replica",
  accessKeyId: "",
  secretAccessKey: "",
  address: "https://paris.example",
  token: "swbhq_abc",
};

function messages(schema: ReturnType<typeof citySchema> | typeof recallSchema, values: unknown): Record<string, string> {
  const r = schema.safeParse(values);
  if (r.success) return {};
  return Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
}

describe("the city form", () => {
  it("accepts a good city (currency upper-cased)", () => {
    const r = citySchema(false).safeParse(good);
    expect(r.success).toBe(true);
    expect(r.data?.currency).toBe("EUR");
  });

  it("says what is wrong on each field, in the server's words", () => {
    expect(messages(citySchema(false), { ...cityValues(), token: "" })).toEqual({
      name: MSG_NAME_REQUIRED,
      timeZone: MSG_TIME_ZONE,
      currency: MSG_CURRENCY,
      replicaUrl: MSG_REPLICA_REQUIRED,
      address: MSG_ADDRESS,
      token: MSG_TOKEN_REQUIRED,
    });
    expect(messages(citySchema(false), { ...good, timeZone: "Local", currency: "EURO", replicaUrl: "http://x", address: "https://u:p@x.example", token: "a b" })).toEqual({
      timeZone: MSG_TIME_ZONE,
      currency: MSG_CURRENCY,
      replicaUrl: MSG_REPLICA_FORM,
      address: MSG_ADDRESS,
      token: MSG_TOKEN_CHARACTERS,
    });
    expect(messages(citySchema(false), { ...good, replicaUrl: "file://relative/dir" })).toEqual({ replicaUrl: MSG_REPLICA_FORM });
    expect(messages(citySchema(false), { ...good, address: "javascript:alert(1)" })).toEqual({ address: MSG_ADDRESS });
  });

  it("lets an edit keep the stored token (blank)", () => {
    expect(citySchema(true).safeParse({ ...good, token: "" }).success).toBe(true);
  });

  it("places a server's refusal on the field it names", () => {
    expect(refusedField(new ApiError(400, JSON.stringify({ status: 400, message: MSG_CURRENCY, data: { currency: { code: "invalid", message: MSG_CURRENCY } } })))).toBe(
      "currency",
    );
    expect(refusedField(new ApiError(409, JSON.stringify({ status: 409, message: "A city with this name already exists", data: {} })))).toBe("");
  });
});

describe("the recall form", () => {
  it("needs a value and a reason", () => {
    expect(messages(recallSchema, { by: "lot", value: " ", reason: "" })).toEqual({ value: MSG_VALUE_REQUIRED, reason: MSG_REASON_REQUIRED });
    expect(recallSchema.safeParse({ by: "lot", value: "L-2026-07", reason: "Swelling cells" }).success).toBe(true);
    expect(recallSchema.safeParse({ by: "colour", value: "x", reason: "y" }).success).toBe(false);
  });
});
