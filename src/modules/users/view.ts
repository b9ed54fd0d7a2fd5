import type { invites, users } from "../../db/tenant/users";

export type UserRow = typeof users.$inferSelect;

export const toUser = (r: UserRow) => ({
  id: r.id,
  email: r.email,
  name: r.name,
  role: r.role,
  status: r.status,
  lastLoginAt: r.lastLoginAt,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export type InviteRow = typeof invites.$inferSelect;

export const toInvite = (r: InviteRow) => ({
  id: r.id,
  email: r.email,
  role: r.role,
  invitedBy: r.invitedBy,
  expiresAt: r.expiresAt,
  createdAt: r.createdAt,
});
