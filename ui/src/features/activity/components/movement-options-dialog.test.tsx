import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { DeleteMovementConfirm } from "@/features/activity/components/movement-options-dialog";

afterEach(cleanup);

const SEND_WARNING = "Delete a send only if its packs never left: if Berlin has received them, they would be counted in both cities.";

function renderConfirm(movement: { type: string; quantity: number; notes: string }, subject: string) {
  render(<DeleteMovementConfirm open movement={movement} subject={subject} pending={false} onCancel={() => {}} onConfirm={() => {}} />);
  return screen.getByRole("dialog");
}

describe("DeleteMovementConfirm", () => {
  it("warns that a send's packs may have been received in the other city, naming it", () => {
    const dialog = renderConfirm({ type: "transfer_out", quantity: -2, notes: "Sent 2 packs to Berlin - van 2" }, "Sent to city by Ann Lee, 28 Nov");
    expect(dialog.textContent).toContain(
      `Delete Sent to city by Ann Lee, 28 Nov (2 batteries). Its batteries return to their original location. ${SEND_WARNING}`,
    );
  });

  it("says nothing of other cities for any other movement", () => {
    for (const type of ["transfer_in", "dropoff", "pickup"]) {
      const dialog = renderConfirm({ type, quantity: -2, notes: "Sent 2 packs to Berlin" }, "A movement");
      expect(dialog.textContent).toContain("Delete A movement (2 batteries). Its batteries return to their original location.");
      expect(dialog.textContent).not.toContain("counted in both cities");
      cleanup();
    }
  });
});
