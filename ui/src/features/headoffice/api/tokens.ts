import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest, getJSON } from "@/lib/api-client";

/** TOKENS_URL lists and issues head-office tokens (master admins); also its query key. */
export const TOKENS_URL = "/api/admin/head-office/tokens";

/**
 * HeadOfficeToken is one token as the server lists it (modules/headoffice.Token): never the
 * token itself, only its last four characters (hint) to tell tokens apart.
 */
export type HeadOfficeToken = {
  id: string;
  name: string;
  hint: string;
  issuedAt: string;
  issuedBy: string;
  revokedAt: string | null;
  revokedBy: string | null;
  lastUsedAt: string | null;
};

/** MAX_TOKEN_NAME is the server's limit on a token's name (schema.MaxHeadOfficeTokenName). */
export const MAX_TOKEN_NAME = 100;

/** The server's messages the card repeats before sending (modules/headoffice). */
export const MSG_NAME_REQUIRED = "Name the token (who or what will use it)";
export const MSG_NAME_TOO_LONG = `The token's name is at most ${MAX_TOKEN_NAME} characters`;

/** tokenNameError is the name's error before it is sent ("" when it is fine). */
export function tokenNameError(name: string): string {
  const n = name.trim();
  if (n === "") return MSG_NAME_REQUIRED;
  if ([...n].length > MAX_TOKEN_NAME) return MSG_NAME_TOO_LONG;
  return "";
}

/** tokensQueryOptions reads the list (refetched when the System page is opened again). */
export const tokensQueryOptions = queryOptions({
  queryKey: [TOKENS_URL],
  queryFn: async ({ signal }) => (await getJSON<{ tokens: HeadOfficeToken[] }>(TOKENS_URL, "throw", signal))?.tokens ?? [],
});

/** useHeadOfficeTokens reads the tokens; enabled for master admins. */
export function useHeadOfficeTokens(enabled: boolean) {
  return useQuery({ ...tokensQueryOptions, enabled });
}

type Issued = { success: boolean; message: string; token: string; info: HeadOfficeToken };
type Revoked = { success: boolean; message: string; info: HeadOfficeToken };

/** put replaces (or adds, first) token info in the cached list: the answer is the list's row. */
function put(list: HeadOfficeToken[] | undefined, info: HeadOfficeToken): HeadOfficeToken[] {
  const rest = (list ?? []).filter((t) => t.id !== info.id);
  return list?.some((t) => t.id === info.id) ? (list ?? []).map((t) => (t.id === info.id ? info : t)) : [info, ...rest];
}

/** useIssueToken issues a token (keyed); the answer carries the token, shown once. */
export function useIssueToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ name, idempotencyKey }: { name: string; idempotencyKey: string }) =>
      apiRequest<Issued>("POST", TOKENS_URL, { name: name.trim() }, { idempotencyKey }),
    onSuccess: (res) => {
      if (res?.info) qc.setQueryData(tokensQueryOptions.queryKey, (old: HeadOfficeToken[] | undefined) => put(old, res.info));
    },
  });
}

/** useRevokeToken revokes a token (keyed): head office is refused at once. */
export function useRevokeToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, idempotencyKey }: { id: string; idempotencyKey: string }) =>
      apiRequest<Revoked>("POST", `${TOKENS_URL}/${encodeURIComponent(id)}/revoke`, {}, { idempotencyKey }),
    onSuccess: (res) => {
      if (res?.info) qc.setQueryData(tokensQueryOptions.queryKey, (old: HeadOfficeToken[] | undefined) => put(old, res.info));
    },
  });
}
