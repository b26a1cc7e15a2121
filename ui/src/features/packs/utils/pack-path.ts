import { paths } from "@/config/paths";

/** packPath is the pack page of serial. */
export function packPath(serial: string): string {
  return paths.pack.path.replace(":serial", encodeURIComponent(serial));
}
