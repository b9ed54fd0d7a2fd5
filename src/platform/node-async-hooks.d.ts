// workerd provides node:async_hooks under the nodejs_compat flag; the project has no @types/node,
// so the one class it uses is declared here.
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    run<R>(store: T, fn: () => R): R;
    getStore(): T | undefined;
  }
}
