import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import {
  ConfirmActionDialog,
  type ConfirmActionDialogProps,
  canEdit,
  confirmDraftSchema,
} from "@/components/confirm-action-dialog";

// user-event on a busy 2-core machine: the default 5 s per test is too tight
vi.setConfig({ testTimeout: 20_000 });

function setup(props: Partial<ConfirmActionDialogProps> = {}) {
  const onConfirm = vi.fn();
  const onOpenChange = vi.fn();
  const all: ConfirmActionDialogProps = {
    open: true,
    onOpenChange,
    type: "dropoff",
    summary: "You are dropping off 4 batteries.",
    values: { goodBatteries: 3, deadBatteries: 1 },
    onConfirm,
    ...props,
  };
  const utils = render(<ConfirmActionDialog {...all} />);
  return { ...utils, onConfirm, onOpenChange, dialog: screen.getByRole("dialog"), user: userEvent.setup() };
}

describe("ConfirmActionDialog", () => {
  it("shows the quantities and asks 'Are you sure?'", () => {
    const { dialog } = setup();
    expect(within(dialog).getByRole("heading", { name: "Confirm Dropoff" })).toBeTruthy();
    expect(within(dialog).getByText("Are you sure?")).toBeTruthy();
    expect(within(dialog).getByText("Good Batteries").nextSibling?.textContent).toBe("3");
    expect(within(dialog).getByText("Dead Batteries").nextSibling?.textContent).toBe("1");
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "Edit" })).toBeTruthy();
  });

  it("confirms the values with a key, and reuses the key on a retry", async () => {
    const { dialog, onConfirm, user } = setup();
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(onConfirm).toHaveBeenCalledTimes(2);
    const [values, key] = onConfirm.mock.calls[0]!;
    expect(values).toEqual({ goodBatteries: 3, deadBatteries: 1 });
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(onConfirm.mock.calls[1]![1]).toBe(key);
  });

  it("Edit makes the quantities editable and confirms the edited values under a new key", async () => {
    const { dialog, onConfirm, user } = setup();
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    const firstKey = onConfirm.mock.calls[0]![1];
    await user.click(within(dialog).getByRole("button", { name: "Edit" }));
    expect(within(dialog).queryByRole("button", { name: "Edit" })).toBeNull();
    const good = within(dialog).getByLabelText("Good Batteries");
    await user.clear(good);
    await user.type(good, "5");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(onConfirm.mock.calls[1]![0]).toEqual({ goodBatteries: 5, deadBatteries: 1 });
    expect(onConfirm.mock.calls[1]![1]).not.toBe(firstKey);
  });

  it("refuses edited values that move nothing", async () => {
    const { dialog, onConfirm, user } = setup({ type: "pickup", values: { quantity: 2 } });
    await user.click(within(dialog).getByRole("button", { name: "Edit" }));
    await user.clear(within(dialog).getByLabelText("Quantity"));
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(onConfirm).not.toHaveBeenCalled();
    expect(within(dialog).getByRole("alert").textContent).toBe("Total batteries must be greater than 0");
  });

  it.each(["edit", "delete"] as const)("has no Edit button for %s", (type) => {
    const { dialog } = setup({ type, values: { quantity: 4 }, summary: "Delete Pickup by Ann (4 batteries)." });
    expect(within(dialog).queryByRole("button", { name: "Edit" })).toBeNull();
    expect(within(dialog).getByText("Are you sure?")).toBeTruthy();
  });

  it("has no Edit button when editing is disallowed", () => {
    const { dialog } = setup({ allowEdit: false });
    expect(within(dialog).queryByRole("button", { name: "Edit" })).toBeNull();
  });

  it("shows the feature's summary and figure labels", () => {
    const { dialog } = setup({
      type: "two_way_swap",
      summary: "Ann and Bob exchange batteries.",
      values: { goodBatteries: 2, deadBatteries: 1, returnGoodBatteries: 0, returnDeadBatteries: 4 },
      labels: { goodBatteries: "Ann gives Bob: good", returnDeadBatteries: "Bob returns to Ann: dead" },
    });
    expect(dialog.textContent).toContain("Ann and Bob exchange batteries.");
    expect(within(dialog).getByText("Ann gives Bob: good").nextSibling?.textContent).toBe("2");
    expect(within(dialog).getByText("Dead Batteries").nextSibling?.textContent).toBe("1");
    expect(within(dialog).getByText("Return Good Batteries").nextSibling?.textContent).toBe("0");
    expect(within(dialog).getByText("Bob returns to Ann: dead").nextSibling?.textContent).toBe("4");
  });

  it("shows an edited figure's message under it", async () => {
    const { dialog, onConfirm, user } = setup();
    await user.click(within(dialog).getByRole("button", { name: "Edit" }));
    const good = within(dialog).getByLabelText("Good Batteries");
    await user.clear(good);
    await user.type(good, "1.5");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await within(dialog).findByText("Must be a valid number 0 or greater")).toBeTruthy();
    expect(good.getAttribute("aria-invalid")).toBe("true");
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it("disables its buttons while pending and cannot be cancelled", async () => {
    const { dialog, onOpenChange, user } = setup({ pending: true });
    expect((within(dialog).getByRole("button", { name: /Confirm/ }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(dialog).getByRole("button", { name: "Cancel" }) as HTMLButtonElement).disabled).toBe(true);
    await user.keyboard("{Escape}");
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it("shows the last failure inside the dialog", () => {
    const { dialog } = setup({ error: "Not enough batteries: only 2 ready" });
    expect(within(dialog).getByRole("alert").textContent).toBe("Not enough batteries: only 2 ready");
  });

  it("Cancel closes", async () => {
    const { dialog, onOpenChange, user } = setup();
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("starts afresh (new key) when opened again", async () => {
    const { dialog, onConfirm, user, rerender } = setup();
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    const props: ConfirmActionDialogProps = {
      open: false,
      onOpenChange: () => {},
      type: "dropoff",
      summary: "You are dropping off 4 batteries.",
      values: { goodBatteries: 3, deadBatteries: 1 },
      onConfirm,
    };
    rerender(<ConfirmActionDialog {...props} />);
    rerender(<ConfirmActionDialog {...props} open />);
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Confirm" }));
    expect(onConfirm.mock.calls[1]![1]).not.toBe(onConfirm.mock.calls[0]![1]);
  });
});

describe("confirmDraftSchema", () => {
  const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    r.success ? [] : r.error!.issues.map((i) => [i.path.join("."), i.message]);
  it("parses blanks as 0 and refuses negatives and fractions", () => {
    expect(confirmDraftSchema("dropoff", ["goodBatteries", "deadBatteries"]).parse({ goodBatteries: "", deadBatteries: "2" })).toEqual({
      goodBatteries: 0,
      deadBatteries: 2,
    });
    expect(issues(confirmDraftSchema("dropoff", ["goodBatteries"]).safeParse({ goodBatteries: "-1" }))).toEqual([
      ["goodBatteries", "Must be a valid number 0 or greater"],
    ]);
    expect(confirmDraftSchema("pickup", ["quantity"]).safeParse({ quantity: "1.5" }).success).toBe(false);
  });
  it("lets a charging session go to 0 but nothing else", () => {
    expect(confirmDraftSchema("charging_edit", ["quantity"]).parse({ quantity: "0" })).toEqual({ quantity: 0 });
    expect(issues(confirmDraftSchema("charge", ["quantity"]).safeParse({ quantity: "0" }))).toEqual([
      ["root", "Total batteries must be greater than 0"],
    ]);
  });
  it("never offers Edit for edit and delete", () => {
    expect(canEdit("edit")).toBe(false);
    expect(canEdit("delete")).toBe(false);
    expect(canEdit("pickup")).toBe(true);
    expect(canEdit("pickup", false)).toBe(false);
  });
});
