import { configure } from "@testing-library/dom";

// waitFor and findBy* wait on a condition; on a loaded machine (2 cores, load 40+) a render
// can take seconds, so their limit is generous rather than testing-library's 1 s.
configure({ asyncUtilTimeout: 15_000 });

// Radix parts (switch, checkbox) and the toaster measure themselves; jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
