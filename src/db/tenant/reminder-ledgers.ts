import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Overdue checkouts already reminded: one row per checkout (its assignment) and due date. The cron
 * writes its notifications only when its insert here wrote, so a checkout is reminded once per
 * due date, and again when the due date moves.
 */
export const checkoutReminders = sqliteTable(
  "checkout_reminders",
  {
    assignmentId: text("assignment_id").notNull(),
    dueBackAt: text("due_back_at").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.assignmentId, t.dueBackAt] })],
);

/**
 * SSO signing certificates already warned about: one row per certificate (SHA-256 of its DER),
 * its expiry and threshold (days before the expiry), so each threshold warns once per certificate.
 */
export const ssoCertificateReminders = sqliteTable(
  "sso_certificate_reminders",
  {
    certificateSha256: text("certificate_sha256").notNull(),
    notAfter: text("not_after").notNull(),
    thresholdDays: integer("threshold_days").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.certificateSha256, t.notAfter, t.thresholdDays] })],
);
