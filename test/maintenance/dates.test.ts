import { describe, expect, it } from "vitest";
import { advanceSchedule } from "../../src/modules/maintenance/completion";
import { addDays, daysBetween, localDate, occurrence, occurrenceAfter } from "../../src/modules/maintenance/dates";
import { classify } from "../../src/modules/maintenance/due";
import type { ScheduleRow } from "../../src/modules/maintenance/view";

describe("maintenance day arithmetic", () => {
  it("computes today in the workspace time zone", () => {
    const at = new Date("2026-03-10T23:30:00Z");
    expect(localDate(at, "UTC")).toBe("2026-03-10");
    expect(localDate(at, "Europe/Berlin")).toBe("2026-03-11");
    expect(localDate(at, "America/Los_Angeles")).toBe("2026-03-10");
    expect(localDate(new Date("2026-03-10T05:00:00Z"), "America/Los_Angeles")).toBe("2026-03-09");
    expect(localDate(at, "Not/AZone")).toBe("2026-03-10"); // unknown zone: UTC
  });

  it("adds and counts days across months and leap years", () => {
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(daysBetween("2026-12-30", "2027-01-02")).toBe(3);
    expect(daysBetween("2026-01-02", "2026-01-01")).toBe(-1);
  });

  it("keeps monthly occurrences on the anchor's day, clamped to short months", () => {
    expect([1, 2, 3].map((k) => occurrence("2026-01-31", 1, "month", k))).toEqual([
      "2026-02-28",
      "2026-03-31",
      "2026-04-30",
    ]);
    expect(occurrence("2026-11-15", 3, "month", 1)).toBe("2027-02-15");
    expect(occurrence("2026-01-01", 2, "week", 2)).toBe("2026-01-29");
  });

  it("finds the first occurrence strictly after a day", () => {
    expect(occurrenceAfter("2026-01-01", 1, "month", "2026-01-01")).toBe("2026-02-01");
    expect(occurrenceAfter("2026-01-01", 1, "month", "2026-03-15")).toBe("2026-04-01");
    expect(occurrenceAfter("2026-01-31", 1, "month", "2026-02-28")).toBe("2026-03-31");
    expect(occurrenceAfter("2026-01-01", 10, "day", "2026-01-25")).toBe("2026-01-31");
    expect(occurrenceAfter("2020-01-06", 1, "week", "2026-06-30")).toBe("2026-07-06");
  });

  it("classifies overdue, due today and upcoming on calendar days", () => {
    expect(classify("2026-05-09", "2026-05-10")).toEqual({ dueStatus: "overdue", daysUntilDue: -1 });
    expect(classify("2026-05-10", "2026-05-10")).toEqual({ dueStatus: "due_today", daysUntilDue: 0 });
    expect(classify("2026-05-13", "2026-05-10")).toEqual({ dueStatus: "upcoming", daysUntilDue: 3 });
  });
});

describe("advancing a schedule on completion", () => {
  const base: ScheduleRow = {
    id: "mts_x",
    itemId: "ast_x",
    title: "Service",
    type: "service",
    every: 1,
    unit: "month",
    anchorDate: "2026-01-01",
    nextDueDate: "2026-03-01",
    reminderDays: 7,
    remindFrom: "2026-02-22",
    assigneeUserId: null,
    notes: null,
    status: "active",
    lastCompletedAt: null,
    createdBy: "usr_x",
    createdAt: "x",
    updatedAt: "x",
  };
  const at = "2026-03-01T10:00:00.000Z";

  it("moves a recurring schedule to its next date after the due date and the completion day", () => {
    expect(advanceSchedule(base, "2026-03-01", at, at)).toMatchObject({
      nextDueDate: "2026-04-01",
      remindFrom: "2026-03-25",
      status: "active",
      lastCompletedAt: at,
    });
    expect(advanceSchedule(base, "2026-02-20", at, at).nextDueDate).toBe("2026-04-01"); // early: counts for the March occurrence
    expect(advanceSchedule(base, "2026-05-10", at, at).nextDueDate).toBe("2026-06-01"); // late: missed ones are not stacked
  });

  it("completes a one-off schedule without moving its date, and keeps a paused one paused", () => {
    expect(advanceSchedule({ ...base, every: null, unit: null }, "2026-03-01", at, at)).toMatchObject({
      status: "completed",
      nextDueDate: "2026-03-01",
    });
    expect(advanceSchedule({ ...base, status: "paused" }, "2026-03-01", at, at)).toMatchObject({
      status: "paused",
      nextDueDate: "2026-04-01",
    });
  });

  it("keeps the latest completion time when a back-dated completion is logged", () => {
    const later = "2026-03-05T00:00:00.000Z";
    expect(advanceSchedule({ ...base, lastCompletedAt: later }, "2026-03-01", at, at).lastCompletedAt).toBe(later);
  });
});
