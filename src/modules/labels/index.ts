/** Front door of the labels module: QR codes and printable PDF label sheets (docs/bookings.md). */
export { labelsRouter } from "./routes";
