import { cleanup, render, screen } from "@testing-library/react";
import { Component, type ReactNode } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { Lazy, type Loadable, loadable } from "@/lib/loadable";

// Lazy is useLoadable's JSX form: these cases check both (the props pass through, the
// fallback shows only while the chunk is on its way).
function Show({ of }: { of: Loadable<{ name: string }> }) {
  return <Lazy of={of} fallback={<p>Loading...</p>} name="Ada" />;
}

class Boundary extends Component<{ children: ReactNode }, { error?: Error }> {
  state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    return this.state.error ? <p role="alert">{this.state.error.message}</p> : this.props.children;
  }
}

const Hello = ({ name }: { name: string }) => <h1>Hello {name}</h1>;

afterEach(cleanup);

describe("loadable", () => {
  it("shows the fallback while the chunk downloads, then the component", async () => {
    let resolve!: (c: typeof Hello) => void;
    const of = loadable(() => new Promise<typeof Hello>((r) => (resolve = r)));
    render(<Show of={of} />);
    expect(screen.getByText("Loading...")).toBeTruthy();
    resolve(Hello);
    expect(await screen.findByRole("heading", { name: "Hello Ada" })).toBeTruthy();
  });

  it("renders a preloaded chunk on the first render: no fallback, nothing suspended", async () => {
    const of = loadable(() => Promise.resolve(Hello));
    await of.preload();
    render(<Show of={of} />);
    expect(screen.getByRole("heading", { name: "Hello Ada" })).toBeTruthy();
    expect(screen.queryByText("Loading...")).toBeNull();
  });

  it("downloads once however many ask", async () => {
    let calls = 0;
    const of = loadable(() => (calls++, Promise.resolve(Hello)));
    await Promise.all([of.preload(), of.preload()]);
    render(<Show of={of} />);
    expect(calls).toBe(1);
  });

  it("throws a failed download to the error boundary, and may try again later", async () => {
    let calls = 0;
    const of = loadable(() => (++calls === 1 ? Promise.reject(new Error("Failed to fetch dynamically imported module")) : Promise.resolve(Hello)));
    render(
      <Boundary>
        <Show of={of} />
      </Boundary>,
    );
    expect((await screen.findByRole("alert")).textContent).toBe("Failed to fetch dynamically imported module");
    await expect(of.preload()).resolves.toBe(Hello);
    expect(calls).toBe(2);
  });
});
