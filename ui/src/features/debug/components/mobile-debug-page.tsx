import { useState } from "react";
import { ButtonLink } from "@/components/button-link";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { paths } from "@/config/paths";
import { type DebugInfo, useDebugInfo } from "@/features/debug/api/get-debug-info";
import { type CapturedError, capturedErrors, clearCapturedErrors } from "@/lib/error-log";
import { formatDateTimeYear } from "@/lib/format";
import { persistenceAnswer } from "@/features/outbox/api/outbox";

type NetworkInformation = { effectiveType?: string; downlink?: number; rtt?: number; saveData?: boolean };

function deviceInfo(): [string, string][] {
  return [
    ["User agent", navigator.userAgent],
    ["Platform", navigator.platform || "unknown"],
    ["Language", navigator.language],
    ["Screen", `${screen.width} × ${screen.height}`],
    ["Viewport", `${window.innerWidth} × ${window.innerHeight}`],
    ["Pixel ratio", String(window.devicePixelRatio)],
    ["Touch points", String(navigator.maxTouchPoints ?? 0)],
    ["Cookies enabled", navigator.cookieEnabled ? "yes" : "no"],
    ["Time", new Date().toString()],
  ];
}

function connectionInfo(): [string, string][] {
  const c = (navigator as Navigator & { connection?: NetworkInformation }).connection;
  return [
    ["Online", navigator.onLine ? "yes" : "no"],
    ["Protocol", window.location.protocol],
    ["Host", window.location.host],
    ["Effective type", c?.effectiveType ?? "unknown"],
    ["Downlink", c?.downlink !== undefined ? `${c.downlink} Mb/s` : "unknown"],
    ["Round trip", c?.rtt !== undefined ? `${c.rtt} ms` : "unknown"],
    ["Outbox storage kept", storageKept()],
  ];
}

/** storageKept is the browser's answer to the outbox's navigator.storage.persist() (DESIGN.md §12). */
function storageKept(): string {
  const a = persistenceAnswer();
  if (!a) return "not asked yet (asked once an action is queued)";
  return `${a.granted ? "yes (persistent)" : "no (best effort: the browser may evict it)"} · asked ${formatDateTimeYear(a.at)}`;
}

function serverInfo(info: DebugInfo): [string, string][] {
  const rows: [string, string][] = [
    ["Server time", `${info.serverTime} (UTC)`],
    ["Operation time", `${info.localTime} (${info.timeZone})`],
    ["Version", `${info.version}${info.commit ? ` · ${info.commit.slice(0, 12)}` : ""}${info.modified ? " (modified)" : ""}`],
    ["Signed in as", `${info.userId} · ${info.role} · ${info.approval}`],
    ["IP seen", info.ip],
    ["User agent seen", info.userAgent],
    ["Protocol", info.requestProto],
  ];
  if (info.admin) {
    const a = info.admin;
    rows.push(
      ["Uptime", a.uptime],
      ["Go", a.goVersion],
      ["Database", `${(a.databaseBytes / 1024 / 1024).toFixed(1)} MB`],
      ["Live connections", String(a.socketClients)],
      ...a.jobs.map((j): [string, string] => [
        `Job ${j.name}`,
        `last ${formatDateTimeYear(j.lastRun) || "not yet"} · next ${formatDateTimeYear(j.nextRun) || "—"}`,
      ]),
    );
  }
  return rows;
}

async function probe(url: string): Promise<string> {
  const started = performance.now();
  try {
    const res = await fetch(url, { credentials: "include", cache: "no-store", headers: { Accept: "application/json" } });
    const text = await res.text();
    const ms = Math.round(performance.now() - started);
    return `GET ${url} → ${res.status} ${res.statusText} (${ms} ms)\n${text.slice(0, 2000)}`;
  } catch (e) {
    return `GET ${url} failed: ${e instanceof Error ? e.message : String(e)}`;
  }
}

function InfoList({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="grid grid-cols-[minmax(7rem,auto)_1fr] gap-x-4 gap-y-1 text-sm">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-medium text-muted-foreground">{k}</dt>
          <dd className="break-all">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * MobileDebugPage is /mobile-debug: device and connection info, a server and an auth probe,
 * and the errors this browser captured.
 */
export function MobileDebugPage() {
  const [device, setDevice] = useState(deviceInfo);
  const [connection, setConnection] = useState(connectionInfo);
  const [response, setResponse] = useState<string>("No test run yet.");
  const [testing, setTesting] = useState(false);
  const [errors, setErrors] = useState<CapturedError[]>(capturedErrors);
  const server = useDebugInfo();

  const run = async (url: string) => {
    setTesting(true);
    setResponse(await probe(url));
    setTesting(false);
  };

  return (
    <main className="mx-auto grid w-full max-w-3xl gap-4 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-bold">Debug Info</h1>
        <ButtonLink variant="outline" size="sm" to={paths.home.path}>Back to Home</ButtonLink>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          onClick={() => {
            setDevice(deviceInfo());
            setConnection(connectionInfo());
            setErrors(capturedErrors());
            void server.refetch();
          }}
        >
          Refresh Info
        </Button>
        <Button variant="outline" disabled={testing} onClick={() => run("/api/health")}>
          Test Server
        </Button>
        <Button variant="outline" disabled={testing} onClick={() => run("/api/auth/user")}>
          Test Auth
        </Button>
        <Button
          variant="outline"
          onClick={() => {
            clearCapturedErrors();
            setErrors([]);
          }}
        >
          Clear Errors
        </Button>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Device Info</CardTitle>
        </CardHeader>
        <CardContent>
          <InfoList rows={device} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Connection</CardTitle>
        </CardHeader>
        <CardContent>
          <InfoList rows={connection} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Server Info</CardTitle>
        </CardHeader>
        <CardContent>
          {server.isPending ? (
            <p className="text-sm text-muted-foreground">Loading...</p>
          ) : server.isError ? (
            <p className="text-sm text-destructive">Could not reach the server: {server.error.message}</p>
          ) : server.data ? (
            <InfoList rows={serverInfo(server.data)} />
          ) : (
            <p className="text-sm text-muted-foreground">Not signed in: sign in to see what the server sees of this device.</p>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Server Response</CardTitle>
        </CardHeader>
        <CardContent>
          <pre aria-live="polite" className="max-h-64 overflow-auto rounded-md bg-muted p-3 text-xs whitespace-pre-wrap">
            {response}
          </pre>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Captured Errors ({errors.length})</CardTitle>
        </CardHeader>
        <CardContent>
          {errors.length === 0 ? (
            <p className="text-sm text-muted-foreground">No errors captured.</p>
          ) : (
            <ul className="grid gap-2">
              {errors.map((e, i) => (
                <li key={`${e.time}-${i}`} className="rounded-md border p-2 text-xs">
                  <p className="font-medium">
                    {e.time} {e.context && `· ${e.context}`}
                  </p>
                  <p className="break-words">{e.message}</p>
                  {e.stack && (
                    <details>
                      <summary className="cursor-pointer">Stack</summary>
                      <pre className="overflow-auto whitespace-pre-wrap">{e.stack}</pre>
                    </details>
                  )}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </main>
  );
}
