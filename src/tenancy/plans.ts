export const PLANS = ["free", "pro", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];
export type PlanFeature = "webhooks" | "sso";

/** What each plan includes. Seats count active users plus open invites; admins count owners and admins. */
export const PLAN_LIMITS: Record<Plan, { features: readonly PlanFeature[]; seats: number; admins: number }> = {
  free: { features: [], seats: 5, admins: 2 },
  pro: { features: ["webhooks"], seats: 50, admins: 10 },
  enterprise: { features: ["webhooks", "sso"], seats: Number.POSITIVE_INFINITY, admins: Number.POSITIVE_INFINITY },
};

export const planIncludes = (plan: Plan, feature: PlanFeature) => PLAN_LIMITS[plan].features.includes(feature);
