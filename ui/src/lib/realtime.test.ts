import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderHook } from "@testing-library/react";
import * as React from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  RECONNECT_AFTER_CLOSE_MS,
  RETRY_AFTER_CREATE_FAILURE_MS,
  connectRealtime,
  handleRealtimeMessage,
  realtimeUrl,
  useRealtime,
} from "@/lib/realtime";
import type { StaleOn } from "@/lib/invalidation";

/** FakeSocket records what the client does; the test drives its events. */
class FakeSocket {
  static instances: FakeSocket[] = [];
  static throwNext = 0;
  readyState = 0;
  sent: string[] = [];
  closedWith: number | undefined;
  onopen: ((e: unknown) => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    if (FakeSocket.throwNext > 0) {
      FakeSocket.throwNext--;
      throw new Error("SecurityError");
    }
    FakeSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
    this.onclose?.({ code: code ?? 1005 });
  }
  // test helpers
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  serverClose(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

const last = () => FakeSocket.instances.at(-1)!;

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.instances = [];
  FakeSocket.throwNext = 0;
  vi.stubGlobal("WebSocket", FakeSocket);
  vi.spyOn(console, "error").mockImplementation(() => {});
  vi.spyOn(console, "warn").mockImplementation(() => {});
  vi.spyOn(console, "info").mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("realtimeUrl", () => {
  it("uses wss on https and ws otherwise, on the same host", () => {
    expect(realtimeUrl({ protocol: "https:", host: "bay.example:8443" })).toBe("wss://bay.example:8443/ws");
    expect(realtimeUrl({ protocol: "http:", host: "127.0.0.1:8090" })).toBe("ws://127.0.0.1:8090/ws");
  });
});

describe("connectRealtime", () => {
  const start = (onMessage = vi.fn()) => connectRealtime({ userId: "u1", url: "ws://h/ws", onMessage });

  it("sends the auth message on open and passes messages on", () => {
    const onMessage = vi.fn();
    start(onMessage);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(last().url).toBe("ws://h/ws");
    expect(last().sent).toEqual([]);
    last().open();
    expect(last().sent.map((s) => JSON.parse(s))).toEqual([{ type: "auth", userId: "u1" }]);
    last().onmessage?.({ data: '{"type":"INVENTORY_UPDATED"}' });
    expect(onMessage).toHaveBeenCalledWith('{"type":"INVENTORY_UPDATED"}');
  });

  it.each([1001, 1006, 4000])("reconnects 3000 ms after a close with code %i", (code) => {
    start();
    last().open();
    last().serverClose(code);
    vi.advanceTimersByTime(RECONNECT_AFTER_CLOSE_MS - 1);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(2);
    last().open();
    expect(JSON.parse(last().sent[0]!)).toEqual({ type: "auth", userId: "u1" });
  });

  it.each([1000, 1008, 1011])("stays closed after code %i", (code) => {
    start();
    last().serverClose(code);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.instances).toHaveLength(1);
  });

  it("retries 5000 ms after the constructor throws, and only logs", () => {
    FakeSocket.throwNext = 2;
    start();
    expect(FakeSocket.instances).toHaveLength(0);
    vi.advanceTimersByTime(RETRY_AFTER_CREATE_FAILURE_MS - 1);
    expect(FakeSocket.instances).toHaveLength(0);
    vi.advanceTimersByTime(1); // second attempt throws too
    expect(FakeSocket.instances).toHaveLength(0);
    vi.advanceTimersByTime(RETRY_AFTER_CREATE_FAILURE_MS);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(console.error).toHaveBeenCalled();
  });

  it("only logs connection errors", () => {
    start();
    expect(() => last().onerror?.({ type: "error" })).not.toThrow();
    expect(console.warn).toHaveBeenCalled();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.instances).toHaveLength(1);
  });

  it("tears down with code 1000 and never reconnects", () => {
    const stop = start();
    last().open();
    stop();
    expect(last().closedWith).toBe(1000);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.instances).toHaveLength(1);
  });

  it("teardown cancels a pending reconnect", () => {
    const stop = start();
    last().serverClose(1006);
    stop();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.instances).toHaveLength(1);
  });
});

describe("handleRealtimeMessage (the queries' meta.staleOn)", () => {
  const rules: [string, StaleOn][] = [
    ["/api/inventory", ["INVENTORY_UPDATED", "CHARGING_UPDATED"]],
    ["/api/state", ["INVENTORY_UPDATED", "ACTIVITY_UPDATED", "CHARGING_UPDATED"]],
    ["/api/admin/weekly-activity", ["ACTIVITY_UPDATED"]],
    ["/api/admin/weekly-activity?weekOffset=-1", ["ACTIVITY_UPDATED"]],
    ["/api/admin/charging-sessions", ["CHARGING_UPDATED"]],
    ["/api/admin/users", ["USERS_UPDATED", "TERMS_UPDATED"]],
    ["/api/auth/user", []],
  ];
  const urls = rules.map(([u]) => u);
  const setup = () => {
    const qc = new QueryClient();
    for (const [u, staleOn] of rules) {
      qc.getQueryCache().build(qc, { queryKey: [u], meta: { staleOn } });
      qc.setQueryData([u], { u });
    }
    const invalidated = () => urls.filter((u) => qc.getQueryState([u])?.isInvalidated);
    return { qc, invalidated };
  };

  it("INVENTORY_UPDATED refreshes the queries that name it", () => {
    const { qc, invalidated } = setup();
    expect(handleRealtimeMessage(qc, JSON.stringify({ type: "INVENTORY_UPDATED", data: {} }))).toBe("INVENTORY_UPDATED");
    expect(invalidated()).toEqual(["/api/inventory", "/api/state"]);
  });

  it("ACTIVITY_UPDATED refreshes the weekly activity (both weeks) and the state", () => {
    const { qc, invalidated } = setup();
    handleRealtimeMessage(qc, '{"type":"ACTIVITY_UPDATED"}');
    expect(invalidated()).toEqual(["/api/state", "/api/admin/weekly-activity", "/api/admin/weekly-activity?weekOffset=-1"]);
  });

  it("CHARGING_UPDATED refreshes charging sessions and inventory", () => {
    const { qc, invalidated } = setup();
    handleRealtimeMessage(qc, '{"type":"CHARGING_UPDATED"}');
    expect(invalidated()).toEqual(["/api/inventory", "/api/state", "/api/admin/charging-sessions"]);
  });

  it("EMERGENCY_OVERRIDE refreshes everything", () => {
    const { qc, invalidated } = setup();
    handleRealtimeMessage(qc, '{"type":"EMERGENCY_OVERRIDE"}');
    expect(invalidated()).toEqual(urls);
  });

  it.each(['{"type":"SOMETHING_ELSE"}', "not json", "null", '{"type":"AUTH_OK"}'])("%s changes nothing", (raw) => {
    const { qc, invalidated } = setup();
    expect(handleRealtimeMessage(qc, raw)).toBeNull();
    expect(invalidated()).toEqual([]);
  });
});

describe("useRealtime", () => {
  const wrapper = (qc: QueryClient) =>
    function Wrapper({ children }: { children: React.ReactNode }) {
      return React.createElement(QueryClientProvider, { client: qc }, children);
    };

  it("connects only when a user is known and closes with 1000 on unmount", () => {
    const qc = new QueryClient();
    const { rerender, unmount } = renderHook(({ id }: { id: string | null }) => useRealtime(id), {
      wrapper: wrapper(qc),
      initialProps: { id: null as string | null },
    });
    expect(FakeSocket.instances).toHaveLength(0);
    rerender({ id: "u9" });
    expect(FakeSocket.instances).toHaveLength(1);
    expect(last().url).toMatch(/^ws:\/\/.*\/ws$/);
    last().open();
    expect(JSON.parse(last().sent[0]!)).toEqual({ type: "auth", userId: "u9" });
    qc.getQueryCache().build(qc, { queryKey: ["/api/state"], meta: { staleOn: ["INVENTORY_UPDATED"] } });
    qc.setQueryData(["/api/state"], {});
    last().onmessage?.({ data: '{"type":"INVENTORY_UPDATED"}' });
    expect(qc.getQueryState(["/api/state"])?.isInvalidated).toBe(true);
    const socket = last();
    unmount();
    expect(socket.closedWith).toBe(1000);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.instances).toHaveLength(1);
  });

  it("a reopened link refetches every query a write changes (messages sent while it was down are lost); the first open does not", () => {
    const qc = new QueryClient();
    qc.getQueryCache().build(qc, { queryKey: ["/api/state"], meta: { staleOn: ["driverOps"] } });
    qc.setQueryData(["/api/state"], {});
    qc.setQueryData(["/api/auth/user"], {});
    renderHook(() => useRealtime("u9"), { wrapper: wrapper(qc) });
    last().open();
    expect(qc.getQueryState(["/api/state"])?.isInvalidated).toBe(false);
    last().onclose?.({ code: 1006 });
    vi.advanceTimersByTime(RECONNECT_AFTER_CLOSE_MS);
    expect(FakeSocket.instances).toHaveLength(2);
    last().open();
    expect(qc.getQueryState(["/api/state"])?.isInvalidated).toBe(true);
    expect(qc.getQueryState(["/api/auth/user"])?.isInvalidated).toBe(false);
  });
});
