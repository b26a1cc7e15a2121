// The pack page's health charts (DESIGN.md §16): uPlot, a small maintained canvas chart
// library (~50 KB minified, ~22 KB over the wire, no dependencies; Recharts would bring d3 and
// several times that), in this chunk of its own that only the pack page loads (PackHealthCard's
// Loadable). The canvas is hidden from screen readers: the card holds the same figures as text.
import * as React from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { timeZone } from "@/lib/format";

/** HealthChartProps: the x values (Unix seconds), the y values, which chart, and the model's threshold (the state-of-health chart's dashed line). */
export type HealthChartProps = { x: number[]; y: number[]; kind: "soh" | "charges"; threshold?: number };

const HEIGHT = 180;
const DAY = 86_400;
const AXIS = { stroke: "#52525b", grid: { stroke: "#e4e4e7", width: 1 }, ticks: { stroke: "#e4e4e7", width: 1 }, font: "11px system-ui, sans-serif" };

/** xRange is the x axis' span: the data's, a week either side of a single point, half a week beside the bars. */
function xRange({ x, kind }: HealthChartProps): [number, number] {
  const min = Math.min(...x);
  const max = Math.max(...x);
  if (min === max) return [min - 7 * DAY, max + 7 * DAY];
  return kind === "soh" ? [min, max] : [min - 4 * DAY, max + 4 * DAY];
}

function options(p: HealthChartProps, width: number): uPlot.Options {
  const zone = timeZone();
  // the x axis in the app's words, one line ("Nov 5"), in the operation's time zone
  const day = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", ...(zone ? { timeZone: zone } : {}) });
  const soh = p.kind === "soh";
  const lowest = Math.min(...p.y, p.threshold ?? 100);
  return {
    width,
    height: HEIGHT,
    // days in the operation's time zone, like every time the app shows
    ...(zone ? { tzDate: (ts: number) => uPlot.tzDate(new Date(ts * 1000), zone) } : {}),
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { size: 8 } },
    scales: {
      // the range from the data itself: one point (or one week) still gets a range around it
      x: { time: true, range: xRange(p) },
      y: { range: soh ? [Math.max(0, Math.floor((lowest - 5) / 5) * 5), 100] : [0, Math.max(4, Math.ceil(Math.max(...p.y) * 1.15))] },
    },
    axes: [
      { ...AXIS, size: 32, values: (_u, splits) => splits.map((s) => day.format(new Date(s * 1000))) },
      { ...AXIS, size: soh ? 50 : 36, values: (_u, vals) => vals.map((v) => (soh ? `${v}%` : Number.isInteger(v) ? String(v) : "")) },
    ],
    series: soh
      ? [
          {},
          { label: "State of health", stroke: "#047857", width: 2, points: { show: true, size: 6, fill: "#047857" } },
          { label: "Threshold", stroke: "#b45309", width: 1.5, dash: [6, 4], points: { show: false } },
        ]
      : [{}, { label: "Charges", fill: "#0369a1", stroke: "#0369a1", width: 0, paths: uPlot.paths.bars!({ size: [0.7, 28] }), points: { show: false } }],
  };
}

/** HealthChart draws one of the pack's health charts, as wide as its box (360 px phones included). */
export function HealthChart({ x, y, kind, threshold }: HealthChartProps) {
  const box = React.useRef<HTMLDivElement>(null);
  React.useEffect(() => {
    const el = box.current;
    if (!el) return;
    const p = { x, y, kind, threshold };
    const data: uPlot.AlignedData = p.kind === "soh" ? [p.x, p.y, p.x.map(() => p.threshold ?? null)] : [p.x, p.y];
    const chart = new uPlot(options(p, Math.max(200, el.clientWidth)), data, el);
    const observer = new ResizeObserver(() => chart.setSize({ width: Math.max(200, el.clientWidth), height: HEIGHT }));
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [x, y, kind, threshold]);
  return <div ref={box} aria-hidden="true" className="w-full overflow-hidden" style={{ minHeight: HEIGHT }} />;
}
