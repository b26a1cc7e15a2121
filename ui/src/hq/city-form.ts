// The Cities form's rules: the server's own words (modules/hq/cities.go) checked before sending,
// so an admin sees what is wrong on the field; the server checks again and has the last word.
import * as z from "zod/mini";
import { ApiError } from "@/lib/api-client";
import { isTimeZone } from "@/lib/format";
import type { City, CityInput } from "@/hq/api";

export const MSG_NAME_REQUIRED = "City name is required";
export const MSG_NAME_TOO_LONG = "City name must be at most 100 characters";
export const MSG_TIME_ZONE = "Time zone must be an IANA name such as Europe/Paris";
export const MSG_CURRENCY = "Currency must be a three-letter ISO 4217 code such as EUR";
export const MSG_REPLICA_REQUIRED = "The city's replica URL is required";
export const MSG_REPLICA_FORM = "Replica URL must be s3://bucket/path?endpoint=…&region=… or file:///absolute/dir";
export const MSG_ADDRESS = "The city's address must be its https:// (or http://) web address, without a user name or password";
export const MSG_TOKEN_REQUIRED = "The head-office token the city issued is required";
export const MSG_TOKEN_CHARACTERS = "The head-office token must be printable characters without spaces";
export const MSG_TOKEN_TOO_LONG = "The head-office token must be at most 500 characters";
export const MSG_KEY_TOO_LONG = "Keys must be at most 500 characters";

/** SET_MARK is what a stored key, secret or token shows: the value itself never comes back. */
export const SET_MARK = "•••• set";

/** validAddress: an http(s) address with a host and no user name, password, query or fragment. */
export function validAddress(raw: string): boolean {
  if (/\s/.test(raw)) return false;
  try {
    const u = new URL(raw);
    return (u.protocol === "https:" || u.protocol === "http:") && u.host !== "" && !u.username && !u.password && !u.search && !u.hash;
  } catch {
    return false;
  }
}

/** citySchema checks the form; editing (a stored token) lets the token stay blank. */
export function citySchema(editing: boolean) {
  return z
    .object({
      name: z.string().check(z.trim()),
      timeZone: z.string().check(z.trim()),
      currency: z.string().check(z.trim(), z.toUpperCase()),
      replicaUrl: z.string().check(z.trim()),
      accessKeyId: z.string().check(z.trim()),
      secretAccessKey: z.string(),
      address: z.string().check(z.trim()),
      token: z.string().check(z.trim()),
    })
    .check(
      z.superRefine((v, ctx) => {
        const bad = (path: keyof CityInput, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
        if (v.name === "") bad("name", MSG_NAME_REQUIRED);
        else if ([...v.name].length > 100) bad("name", MSG_NAME_TOO_LONG);
        if (v.timeZone.toLowerCase() === "local" || !isTimeZone(v.timeZone)) bad("timeZone", MSG_TIME_ZONE);
        if (!/^[A-Z]{3}$/.test(v.currency)) bad("currency", MSG_CURRENCY);
        if (v.replicaUrl === "") bad("replicaUrl", MSG_REPLICA_REQUIRED);
        else if (!/^s3:\/\/[^/?#]+/.test(v.replicaUrl) && !/^file:\/\/\/./.test(v.replicaUrl)) bad("replicaUrl", MSG_REPLICA_FORM);
        if (v.accessKeyId.length > 500) bad("accessKeyId", MSG_KEY_TOO_LONG);
        if (v.secretAccessKey.length > 500) bad("secretAccessKey", MSG_KEY_TOO_LONG);
        if (!validAddress(v.address)) bad("address", MSG_ADDRESS);
        if (v.token === "" && !editing) bad("token", MSG_TOKEN_REQUIRED);
        else if (v.token.length > 500) bad("token", MSG_TOKEN_TOO_LONG);
        else if (v.token !== "" && !/^[\x21-\x7e]+$/.test(v.token)) bad("token", MSG_TOKEN_CHARACTERS);
      }),
    );
}

/** cityValues are the form's values for a city (keys, secret and token always start blank), or an empty form. */
export function cityValues(city?: City): CityInput {
  return {
    name: city?.name ?? "",
    timeZone: city?.timeZone ?? "",
    currency: city?.currency ?? "",
    replicaUrl: city?.replicaUrl ?? "",
    accessKeyId: "",
    secretAccessKey: "",
    address: city?.address ?? "",
    token: "",
  };
}

const FIELDS: (keyof CityInput)[] = ["name", "timeZone", "currency", "replicaUrl", "accessKeyId", "secretAccessKey", "address", "token"];

/** refusedField is the form field a 400 names (apierr's data carries the field), or "" when it names none. */
export function refusedField(error: unknown): keyof CityInput | "" {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.data || typeof error.data !== "object") return "";
  return FIELDS.find((f) => f in (error.data as object)) ?? "";
}
