/** Role is one of the app's roles (spec part 1 §3; the liaison's spelling is the spec's). */
export type Role = "driver" | "admin" | "master_admin" | "corporate_liason";

/** ApprovalState is a user's isApproved value. */
export type ApprovalState = "pending" | "approved" | "rejected" | "suspended";

/** User is the current user as GET /api/auth/user returns it. */
export type User = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  isApproved: ApprovalState;
  payReductionPercentage: number;
  adminPoolWithholdingPercentage: number;
  mustResignTerms: boolean;
  /** timeZone is the operation's IANA zone: every time and "today" is shown in it (lib/format). */
  timeZone?: string;
};

type NameParts = Partial<Pick<User, "firstName" | "lastName" | "email">> | null | undefined;

/** isAdminRole reports admin and master_admin, the administrator roles. */
export function isAdminRole(role: string | undefined): boolean {
  return role === "admin" || role === "master_admin";
}

/** isMasterAdmin reports the master admin, the one role the server lets wipe history or reset the system. */
export function isMasterAdmin(role: string | undefined): boolean {
  return role === "master_admin";
}

/** isLiaisonRole reports the corporate liaison. */
export function isLiaisonRole(role: string | undefined): boolean {
  return role === "corporate_liason";
}

/** initials: first letters of first and last name, else first two letters of the email, else U. */
export function initials(user: NameParts): string {
  const first = user?.firstName?.trim();
  const last = user?.lastName?.trim();
  if (first && last) return (first[0]! + last[0]!).toUpperCase();
  const email = user?.email?.trim();
  if (email) return email.slice(0, 2).toUpperCase();
  return "U";
}

/** displayName: full name, else first name, else email, else User. */
export function displayName(user: NameParts): string {
  const first = user?.firstName?.trim();
  const last = user?.lastName?.trim();
  if (first && last) return `${first} ${last}`;
  if (first) return first;
  const email = user?.email?.trim();
  if (email) return email;
  return "User";
}

const ROLE_LABELS: Record<Role, string> = {
  driver: "Driver",
  admin: "Admin",
  master_admin: "Master Admin",
  corporate_liason: "Corporate Liaison",
};

/** roleLabel is the role text shown in the header and tables. */
export function roleLabel(role: string | undefined): string {
  return (role && ROLE_LABELS[role as Role]) || "User";
}

const ROLE_LETTERS: Record<Role, string> = { master_admin: "M", admin: "A", corporate_liason: "L", driver: "D" };

/** roleLetter is the Users page's role badge letter: M, A, L or D (spec part 2 §2). */
export function roleLetter(role: string | undefined): string {
  return (role && ROLE_LETTERS[role as Role]) || "?";
}
