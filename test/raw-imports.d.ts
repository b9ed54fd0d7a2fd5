/** Vite's `?raw` imports (fixtures read as text inside workerd, which has no file system). */
declare module "*?raw" {
  const text: string;
  export default text;
}
