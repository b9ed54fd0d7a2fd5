// Stylesheets are imported for their side effect (Vite bundles them); TypeScript 7 checks such
// imports (noUncheckedSideEffectImports), so it is told what a `.css` module is.
declare module "*.css";
