/**
 * paths lists every route of the app (spec part 2 §2). The router, links and redirects
 * all take their paths from here.
 */
export const paths = {
  home: { path: "/", label: "Home" },
  auth: { path: "/auth", label: "Sign In" },
  adminConsole: { path: "/admin-console", label: "Driver Console" },
  adminCharging: { path: "/admin-charging", label: "Charging" },
  adminDriverSwaps: { path: "/admin-driver-swaps", label: "Driver Management" },
  adminDropoffNotes: { path: "/admin-dropoff-notes", label: "Dropoff Notes" },
  adminEmergency: { path: "/admin-emergency", label: "Emergency Inventory" },
  adminPhotos: { path: "/admin-photos", label: "Photos" },
  adminUsers: { path: "/admin-users", label: "Users" },
  adminSystem: { path: "/admin-system", label: "System" },
  packs: { path: "/packs", label: "Packs" },
  pack: { path: "/packs/:serial", label: "Pack" },
  /** the address a pack's label QR code holds (DESIGN.md §14): the public pack page (an admin: the pack page) */
  packLabel: { path: "/p/:serial", label: "Pack" },
  liaison: { path: "/liaison", label: "Operations Dashboard" },
  liaisonConsole: { path: "/liaison-console", label: "Operations Dashboard" },
  changePassword: { path: "/change-password", label: "Change Password" },
  mobileDebug: { path: "/mobile-debug", label: "Debug Info" },
  /** recalls by lot, model or manufacturer (admins; DESIGN.md §14) */
  packRecalls: { path: "/packs/recalls", label: "Recalls" },
  packRecall: { path: "/packs/recalls/:id", label: "Recall" },
  /** each pack model's figures and end-of-life threshold (admins edit, the liaison reads; DESIGN.md §16) */
  packModels: { path: "/packs/models", label: "Pack models" },
  /** count a place by its packs (admins; DESIGN.md §14 Stocktake) */
  stocktake: { path: "/packs/stocktake", label: "Stocktake" },
  /** packs sent to and received from other cities (admins; issue 45 item 6) */
  transfers: { path: "/packs/transfers", label: "Transfers" },
  transferSend: { path: "/packs/transfers/send", label: "Send to another city" },
  transferReceive: { path: "/packs/transfers/receive", label: "Receive from another city" },
  transfer: { path: "/packs/transfers/:id", label: "Transfer" },
} as const;

/** PathKey names one entry of paths. */
export type PathKey = keyof typeof paths;

/** anchors are the ids of page blocks that links open at (path#anchor). */
export const anchors = {
  /** the Signed Agreements block of /admin-system, where Retry PDF is */
  signedAgreements: "signed-agreements",
} as const;
