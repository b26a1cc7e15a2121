import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "@/app/index";
import { isSafariLike } from "@/lib/browser";
import { inertBehindModals } from "@/lib/inert-behind-modals";
import { logError } from "@/lib/error-log";
import "@/index.css";

// Keep uncaught errors for /mobile-debug. Safari and iOS: an unhandled rejection whose
// message contains 401 is ignored (spec part 2 §8); the unauthorized handling covers it.
window.addEventListener("error", (e) => logError(e.error ?? e.message, "window error"));
window.addEventListener("unhandledrejection", (e) => {
  const message = e.reason instanceof Error ? e.reason.message : String(e.reason);
  if (isSafariLike() && message.includes("401")) return;
  logError(e.reason, "unhandled rejection");
});

function showCompatibilityIssue(root: HTMLElement, error: unknown) {
  logError(error, "startup");
  root.innerHTML = "";
  const box = document.createElement("main");
  box.style.cssText = "font-family:system-ui,sans-serif;max-width:28rem;margin:15vh auto;padding:1rem;text-align:center";
  const h1 = document.createElement("h1");
  h1.textContent = "Browser Compatibility Issue";
  const p = document.createElement("p");
  p.textContent = "The app could not start in this browser. Please update your browser or try another one.";
  const button = document.createElement("button");
  button.textContent = "Try Again";
  button.style.cssText = "margin-top:1rem;padding:.5rem 1rem;border:1px solid #999;border-radius:.375rem";
  button.onclick = () => window.location.reload();
  box.append(h1, p, button);
  root.append(box);
}

const root = document.getElementById("root")!;
inertBehindModals(root);
try {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
} catch (error) {
  showCompatibilityIssue(root, error);
}
