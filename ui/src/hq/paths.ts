/** hqPaths lists head office's screens (served by `swapbay hq serve` from hq.html). */
export const hqPaths = {
  overview: { path: "/", label: "Overview" },
  history: { path: "/history", label: "History" },
  packs: { path: "/packs", label: "Pack search" },
  recalls: { path: "/recalls", label: "Recalls" },
  recall: { path: "/recalls/:id", label: "Recall" },
  transit: { path: "/transit", label: "In transit" },
  cities: { path: "/cities", label: "Cities" },
} as const;

/** HQ_TABS are the navigation's entries, in order. */
export const HQ_TABS = [hqPaths.overview, hqPaths.packs, hqPaths.recalls, hqPaths.transit, hqPaths.history, hqPaths.cities];

/** recallPath is one recall's page. */
export function recallPath(id: string): string {
  return `/recalls/${encodeURIComponent(id)}`;
}

/** activeHqTab is the tab the path belongs to (a recall's page is under Recalls). */
export function activeHqTab(pathname: string) {
  if (pathname === "/") return hqPaths.overview;
  return HQ_TABS.find((t) => t.path !== "/" && (pathname === t.path || pathname.startsWith(t.path + "/")));
}
