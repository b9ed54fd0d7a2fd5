import { settingsOf, type TenantRecord } from "../../tenancy/registry";

export const toSettings = (t: TenantRecord) => {
  const s = settingsOf(t);
  return {
    timezone: s.timezone,
    healthSensitivity: s.healthSensitivity,
    corsOrigins: s.corsOrigins,
    requestExpiryDays: s.requestExpiryDays,
    offboardingDueDays: s.offboardingDueDays,
  };
};
