export { peopleRouter } from "./routes";
export { restorePerson } from "./trash";
