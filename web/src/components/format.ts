/** Dates and times as a person reads them: the day and the time, in the phone's time zone. */
export const dateTime = (iso: string) =>
  new Date(iso).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" });
export const day = (iso: string) => new Date(iso).toLocaleDateString("en", { dateStyle: "medium" });
