/** packStateLabel is how a pack's state reads: "In service", "Quarantined". */
export function packStateLabel(state: string): string {
  const s = state.replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}
