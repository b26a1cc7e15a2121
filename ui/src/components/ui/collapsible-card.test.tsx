import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Card, CardContent, CardDescription, CardHeader, CardTitle, CollapsibleCard } from "@/components/ui/card";
import { REMEMBERED_OPEN_PREFIX } from "@/hooks/use-remembered-open";

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  window.localStorage.clear();
  document.body.innerHTML = "";
});

function Section({ title, body }: { title: string; body: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>About {title}</CardDescription>
      </CardHeader>
      <CardContent>
        <p>{body}</p>
        <Card>
          <CardHeader>
            <CardTitle>Inner card</CardTitle>
          </CardHeader>
        </Card>
      </CardContent>
    </Card>
  );
}

const page = () => (
  <>
    <CollapsibleCard id="test.one">
      <Section title="Active Charging Sessions" body="sessions body" />
    </CollapsibleCard>
    <CollapsibleCard id="test.two">
      <Section title="Recent Activity" body="activity body" />
    </CollapsibleCard>
  </>
);

describe("CollapsibleCard", () => {
  it("opens by default, its title is the toggle, and only the inner card's title stays a plain heading", () => {
    render(page());
    const toggle = screen.getByRole("button", { name: "Active Charging Sessions" });
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByRole("heading", { level: 2, name: "Active Charging Sessions" }).contains(toggle)).toBe(true);
    expect(screen.getByText("sessions body")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Inner card" })).toBeNull();
    expect(screen.getAllByRole("heading", { name: "Inner card" })).toHaveLength(2);
  });

  it("collapses one section, and remembers each section's state after a reload", async () => {
    const view = render(page());
    await userEvent.click(screen.getByRole("button", { name: "Active Charging Sessions" }));
    expect(screen.getByRole("button", { name: "Active Charging Sessions" }).getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByText("sessions body")).toBeNull();
    expect(screen.queryByText("About Active Charging Sessions")).toBeNull();
    expect(screen.getByText("activity body")).toBeTruthy(); // the other section is untouched
    expect(window.localStorage.getItem(REMEMBERED_OPEN_PREFIX + "test.one")).toBe("closed");

    view.unmount();
    render(page()); // the next visit on this device
    expect(screen.getByRole("button", { name: "Active Charging Sessions" }).getAttribute("aria-expanded")).toBe("false");
    expect(screen.getByRole("button", { name: "Recent Activity" }).getAttribute("aria-expanded")).toBe("true");

    await userEvent.click(screen.getByRole("button", { name: "Active Charging Sessions" }));
    expect(screen.getByText("sessions body")).toBeTruthy();
    expect(window.localStorage.getItem(REMEMBERED_OPEN_PREFIX + "test.one")).toBe("open");
  });

  it("still toggles when the device refuses storage", async () => {
    const set = vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new DOMException("denied", "SecurityError");
    });
    render(page());
    await userEvent.click(screen.getByRole("button", { name: "Recent Activity" }));
    expect(screen.queryByText("activity body")).toBeNull();
    set.mockRestore();
  });
});
