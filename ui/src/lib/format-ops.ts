// Text for the operations screens (spec part 1 §2, §3): movement notes without their machine
// markers and the labels of assignment and movement types. Times and dates are lib/format's.
const ASSIGNMENT_LABELS: Record<string, string> = {
  pickup: "Pickup",
  home_charger: "Home Charger",
  moving: "Moving",
  in_transit: "In Transit",
  maintenance: "Maintenance",
  delivery: "Delivery",
  pickup_point: "Pickup Point",
  warehouse: "Warehouse",
};


/** assignmentTypeLabel names an assignment type ('home_charger' → 'Home Charger'); unknown types read 'Assignment'. */
export function assignmentTypeLabel(type: string | null | undefined): string {
  return (type && ASSIGNMENT_LABELS[type]) || "Assignment";
}

const MOVEMENT_LABELS: Record<string, string> = {
  dropoff: "Dropoff",
  pickup: "Pickup",
  driver_swap_in: "Swap In",
  driver_swap_out: "Swap Out",
  driver_swap: "Driver Swap",
  adjustment: "Adjustment",
  charge_start: "Charge Start",
  charge_complete: "Charge Complete",
  internal_transfer: "Transfer",
  rebalance: "Moves",
  retrieves_repairs_dropoff: "Recovers",
  dead_battery_dropoff: "Dead Dropoff",
  stocktake: "Stocktake",
  transfer_out: "Sent to city",
  transfer_in: "Received from city",
};

/** movementTypeLabel names a movement type for badges ('retrieves_repairs_dropoff' → 'Recovers'). */
export function movementTypeLabel(type: string | null | undefined): string {
  if (!type) return "Movement";
  return MOVEMENT_LABELS[type] ?? type.replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

/** NoteCounts are the good and dead counts a movement's notes carry ('3 good, 1 dead'). */
export type NoteCounts = { good: number; dead: number };

/**
 * noteCounts reads the 'N good' and 'N dead' markers of a movement's notes; null when the
 * notes carry neither.
 */
export function noteCounts(notes: string | null | undefined): NoteCounts | null {
  if (!notes) return null;
  const good = /(\d+)\s+good\b/i.exec(notes);
  const dead = /(\d+)\s+dead\b/i.exec(notes);
  if (!good && !dead) return null;
  return { good: good ? Number(good[1]) : 0, dead: dead ? Number(dead[1]) : 0 };
}

// The server writes these markers (modules/inventory: DropoffNotes, SwapNotes, AssignmentNotes);
// the user's own text follows ' - '.
const SWAP_RE = /^DRIVER_SWAP:\s*(?:\d+\s+good,?\s*)?(?:\d+\s+dead\s*)?From:\s*(.+?)\s+To:\s*(.+?)(?:\s+-\s+([\s\S]*))?$/;
const ASSIGNMENT_RE = /^MANUAL_ASSIGNMENT:\s*(?:\d+\s+batteries\s*)?(?:\([^)]*\)\s*)?assigned to\s+(.+?)(?:\s+-\s+([\s\S]*))?$/i;
const COUNTS_RE = /^\d+\s+(?:good|dead)(?:\s*,\s*\d+\s+(?:good|dead))?(?:\s+-\s+|\s*$)/i;

/**
 * cleanMovementNotes turns stored notes into what a person reads: the 'N good, N dead'
 * prefix goes (the counts are shown beside the entry), 'DRIVER_SWAP: … From: X To: Y - note'
 * reads 'From X to Y: note', 'MANUAL_ASSIGNMENT: … assigned to X - note' reads 'Assigned to
 * X: note'. Other notes are returned trimmed.
 */
export function cleanMovementNotes(notes: string | null | undefined): string {
  const s = (notes ?? "").trim();
  if (!s) return "";
  const swap = SWAP_RE.exec(s);
  if (swap) return withNote(`From ${swap[1]} to ${swap[2]}`, swap[3]);
  const assignment = ASSIGNMENT_RE.exec(s);
  if (assignment) return withNote(`Assigned to ${assignment[1]}`, assignment[2]);
  if (COUNTS_RE.test(s)) return s.replace(COUNTS_RE, "").trim();
  return s;
}

function withNote(head: string, note: string | undefined): string {
  const n = note?.trim();
  return n ? `${head}: ${n}` : head;
}

/** MetaNotes is the part of a movement's structured meta that its readable notes come from. */
export type MetaNotes = {
  userNotes: string;
  assignmentType?: string;
  from?: { firstName: string; lastName: string } | null;
  to?: { firstName: string; lastName: string } | null;
};

/**
 * movementNotes is what a person reads for a movement: from its structured meta when the server
 * sent one ('From X to Y: note' for a swap, 'Assigned to X: note' for a manual assignment, else
 * the notes as typed), else from the stored notes (cleanMovementNotes).
 */
export function movementNotes(m: { notes: string; type: string; meta?: MetaNotes; user?: { firstName: string; lastName: string } | null }): string {
  if (!m.meta) return cleanMovementNotes(m.notes);
  const note = m.meta.userNotes.trim();
  const name = (u: { firstName: string; lastName: string }) => `${u.firstName} ${u.lastName}`.trim();
  if (m.meta.from && m.meta.to) return withNote(`From ${name(m.meta.from)} to ${name(m.meta.to)}`, note);
  if (m.meta.assignmentType && m.meta.assignmentType !== "pickup" && m.user) return withNote(`Assigned to ${name(m.user)}`, note);
  return note;
}
