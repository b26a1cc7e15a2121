// The realtime link (spec part 1 §4, §7; DESIGN §6): one WebSocket to /ws per signed-in tab.
// The server pushes {type} after each commit; the client answers by invalidating the cached
// queries whose data the change touches, so every open screen refetches without a reload.
// Query keys are the URLs (STYLE: "the spec's keys are the URLs"), so this file names URLs
// and never imports a feature.
import type { QueryClient } from "@tanstack/react-query";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { logError } from "@/lib/error-log";
import { REALTIME_CHANGES, invalidate, refreshWritten } from "@/lib/invalidation";
import { markRealtimeEvent, setRealtimeOpen } from "@/lib/connectivity";

/** RECONNECT_AFTER_CLOSE_MS is the pause before reconnecting after an unexpected close. */
export const RECONNECT_AFTER_CLOSE_MS = 3000;
/** RETRY_AFTER_CREATE_FAILURE_MS is the pause after `new WebSocket` threw. */
export const RETRY_AFTER_CREATE_FAILURE_MS = 5000;
/**
 * NO_RECONNECT_CODES are the close codes after which the link stays closed: 1000 (our own
 * teardown), 1008 (policy: the server refused our auth) and 1011 (server error).
 */
export const NO_RECONNECT_CODES: ReadonlySet<number> = new Set([1000, 1008, 1011]);

/** RealtimeMessageType is a message the server sends. */
export type RealtimeMessageType = (typeof REALTIME_CHANGES)[number] | "EMERGENCY_OVERRIDE";

function isChange(type: unknown): type is (typeof REALTIME_CHANGES)[number] {
  return (REALTIME_CHANGES as readonly unknown[]).includes(type);
}

/**
 * handleRealtimeMessage applies one raw message: invalidates the queries whose meta.staleOn
 * names it (lib/invalidation.ts), everything for EMERGENCY_OVERRIDE; unknown types and
 * unparseable text are only logged. Returns the type it acted on (null otherwise).
 */
export function handleRealtimeMessage(queryClient: QueryClient, raw: unknown): RealtimeMessageType | null {
  let type: unknown;
  try {
    type = (JSON.parse(String(raw)) as { type?: unknown } | null)?.type;
  } catch (err) {
    console.warn("realtime: unparseable message", raw, err);
    return null;
  }
  if (type === "EMERGENCY_OVERRIDE") {
    markRealtimeEvent();
    void invalidate(queryClient, "everything");
    return type;
  }
  if (isChange(type)) {
    markRealtimeEvent();
    void invalidate(queryClient, type);
    return type;
  }
  if (type === "AUTH_OK") return null; // the server's acknowledgement of our auth message
  console.info("realtime: unknown message type", type);
  return null;
}

/** realtimeUrl is ws(s)://<this host>/ws: wss on https pages, ws otherwise. */
export function realtimeUrl(location: Pick<Location, "protocol" | "host"> = window.location): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;
}

const OPEN = 1; // WebSocket.OPEN

/** WebSocketFactory makes a socket (tests pass a fake). */
export type WebSocketFactory = (url: string) => WebSocket;

/** RealtimeOptions configure connectRealtime. */
export type RealtimeOptions = {
  /** userId is sent in the auth message on open. */
  userId: string;
  /** onMessage receives each message's raw data. */
  onMessage: (data: unknown) => void;
  /** url defaults to realtimeUrl(). */
  url?: string;
  /** createSocket defaults to `new WebSocket(url)`. */
  createSocket?: WebSocketFactory;
  /** onReopen runs when the link opens again after a close: messages sent meanwhile were lost. */
  onReopen?: () => void;
};

/**
 * connectRealtime opens the link and keeps it open (spec part 1 §4): on open it sends
 * {type:'auth', userId}; a close with a code other than 1000/1008/1011 reconnects after
 * 3000 ms; a throwing constructor retries after 5000 ms; errors are only logged. The
 * returned function tears down: it cancels a pending reconnect and closes with 1000.
 */
export function connectRealtime(options: RealtimeOptions): () => void {
  const url = options.url ?? realtimeUrl();
  const create: WebSocketFactory = options.createSocket ?? ((u) => new WebSocket(u));
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let opened = false;

  const schedule = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(connect, ms);
  };

  function connect() {
    timer = undefined;
    if (stopped) return;
    let ws: WebSocket;
    try {
      ws = create(url);
    } catch (err) {
      logError(err, "realtime: could not create the WebSocket");
      schedule(RETRY_AFTER_CREATE_FAILURE_MS);
      return;
    }
    socket = ws;
    ws.onopen = () => {
      setRealtimeOpen(true);
      ws.send(JSON.stringify({ type: "auth", userId: options.userId }));
      if (opened) options.onReopen?.();
      opened = true;
    };
    ws.onmessage = (event) => options.onMessage(event.data);
    ws.onerror = (event) => console.warn("realtime: connection error", event);
    ws.onclose = (event) => {
      if (socket === ws) {
        socket = null;
        setRealtimeOpen(false);
      }
      if (stopped || NO_RECONNECT_CODES.has(event.code)) return;
      schedule(RECONNECT_AFTER_CLOSE_MS);
    };
  }

  connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    const ws = socket;
    socket = null;
    setRealtimeOpen(false);
    if (ws && ws.readyState <= OPEN) ws.close(1000); // CONNECTING or OPEN
  };
}

/**
 * useRealtime keeps the realtime link open while a user is signed in (mount it once, in the
 * signed-in shell) and turns its messages into query invalidations. When the link reopens,
 * every query a write changes refetches: a commit's message sent while it was down is lost,
 * and an answer that raced the reconnect must not leave an old count on screen.
 */
export function useRealtime(userId: string | null | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId) return;
    return connectRealtime({
      userId,
      onMessage: (data) => handleRealtimeMessage(queryClient, data),
      onReopen: () => void refreshWritten(queryClient),
    });
  }, [userId, queryClient]);
}
