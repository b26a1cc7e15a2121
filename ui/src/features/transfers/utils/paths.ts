import { paths } from "@/config/paths";

/** transferPath is the page of transfer id. */
export function transferPath(id: string): string {
  return paths.transfer.path.replace(":id", encodeURIComponent(id));
}

/** packsWord is "1 pack" or "N packs". */
export function packsWord(n: number): string {
  return n === 1 ? "1 pack" : `${n} packs`;
}
