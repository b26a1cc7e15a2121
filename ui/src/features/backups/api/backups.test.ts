// @vitest-environment node
import { describe, expect, it } from "vitest";
import { MSG_KEEP, MSG_TIME, formatSize, scheduleSchema, toScheduleInput } from "@/features/backups/api/backups";

describe("scheduleSchema", () => {
  it("takes a daily time and a count from 1 to 100, sent as a JSON integer", () => {
    const v = scheduleSchema.parse({ enabled: true, time: "03:00", keep: "7" });
    expect(toScheduleInput(v)).toEqual({ enabled: true, time: "03:00", keep: 7 });
  });
  it.each([
    [{ time: "24:00", keep: "7" }, MSG_TIME],
    [{ time: "3pm", keep: "7" }, MSG_TIME],
    [{ time: "03:00", keep: "0" }, MSG_KEEP],
    [{ time: "03:00", keep: "101" }, MSG_KEEP],
    [{ time: "03:00", keep: "1.5" }, MSG_KEEP],
    [{ time: "03:00", keep: "" }, MSG_KEEP],
  ])("refuses %j", (v, msg) => {
    const r = scheduleSchema.safeParse({ enabled: true, ...v });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(msg);
  });
});

describe("formatSize", () => {
  it("reads like a person would say it", () => {
    expect(formatSize(512)).toBe("512 B");
    expect(formatSize(2048)).toBe("2.0 KB");
    expect(formatSize(5 * 1024 * 1024)).toBe("5.0 MB");
    expect(formatSize(300 * 1024 * 1024)).toBe("300 MB");
  });
});
