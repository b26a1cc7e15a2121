/** CapturedError is one error kept for the /mobile-debug page. */
export type CapturedError = {
  time: string;
  message: string;
  stack?: string;
  context?: string;
};

const STORAGE_KEY = "swapbay:captured-errors";
const MAX = 25;

/** capturedErrors returns the errors kept in this browser, newest first. */
export function capturedErrors(): CapturedError[] {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as CapturedError[]) : [];
  } catch {
    return [];
  }
}

/** logError keeps error (with a short context) for the debug page and logs it. */
export function logError(error: unknown, context?: string): void {
  const e = error instanceof Error ? error : new Error(String(error));
  console.error(context ?? "error", e);
  const entry: CapturedError = { time: new Date().toISOString(), message: e.message, stack: e.stack, context };
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify([entry, ...capturedErrors()].slice(0, MAX)));
  } catch {
    // storage full or blocked (private mode): the console log is enough
  }
}

/** clearCapturedErrors forgets every kept error. */
export function clearCapturedErrors(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // ignore
  }
}
