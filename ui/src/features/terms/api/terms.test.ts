import { describe, expect, it, vi } from "vitest";
import { absoluteUrl, openPDF } from "@/features/terms/api/terms";

// fakeWindow opens tabs as a browser does: by the HTML standard, window.open with the
// "noopener" feature returns null even when the tab opened; blocked pop-ups return null too.
function fakeWindow(blocked = false) {
  const tab = { opener: {} as unknown } as Window;
  const location = { origin: "https://bay.example", href: "https://bay.example/admin-system", assign: vi.fn() };
  const open = vi.fn((_url?: string | URL, _target?: string, features?: string) =>
    blocked || /noopener/i.test(features ?? "") ? null : tab,
  );
  return { win: { open, location } as unknown as Pick<Window, "open" | "location">, open, location, tab };
}

describe("openPDF", () => {
  it("opens a new tab on a desktop and leaves the admin's own tab where it is", () => {
    const { win, open, location, tab } = fakeWindow();
    openPDF("/api/agreements/a1/pdf", false, win);
    expect(open).toHaveBeenCalledWith("https://bay.example/api/agreements/a1/pdf", "_blank");
    expect(location.assign).not.toHaveBeenCalled();
    expect(location.href).toBe("https://bay.example/admin-system");
    expect(tab.opener).toBeNull(); // the new tab cannot reach back into the app
  });
  it("falls back to the same tab on a desktop when the pop-up is blocked", () => {
    const { win, location } = fakeWindow(true);
    openPDF("/api/agreements/a1/pdf", false, win);
    expect(location.assign).toHaveBeenCalledWith("https://bay.example/api/agreements/a1/pdf");
  });
  it("navigates in the same tab on a phone, without a pop-up", () => {
    const { win, open, location } = fakeWindow();
    openPDF("https://files.example/a1.pdf", true, win);
    expect(open).not.toHaveBeenCalled();
    expect(location.assign).toHaveBeenCalledWith("https://files.example/a1.pdf");
  });
});

describe("absoluteUrl", () => {
  it("prefixes a relative path with the origin and keeps a full URL", () => {
    expect(absoluteUrl("api/x.pdf", "https://bay.example")).toBe("https://bay.example/api/x.pdf");
    expect(absoluteUrl("/api/x.pdf", "https://bay.example")).toBe("https://bay.example/api/x.pdf");
    expect(absoluteUrl("HTTPS://cdn.example/x.pdf", "https://bay.example")).toBe("HTTPS://cdn.example/x.pdf");
  });
});
