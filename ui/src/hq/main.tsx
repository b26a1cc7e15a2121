import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { HqApp } from "@/hq/app";
import { inertBehindModals } from "@/lib/inert-behind-modals";
import { logError } from "@/lib/error-log";
import "@/index.css";

// Head office's entry (hq.html, served by `swapbay hq serve`): the city's styles and
// components, head office's own screens. No service worker and no boot script: HQ is read at a
// desk or on a phone online, and its first screen waits for its own session call.
window.addEventListener("error", (e) => logError(e.error ?? e.message, "window error"));
window.addEventListener("unhandledrejection", (e) => logError(e.reason, "unhandled rejection"));

const root = document.getElementById("root")!;
inertBehindModals(root);
createRoot(root).render(
  <StrictMode>
    <HqApp />
  </StrictMode>,
);
