// oidc-provider's own in-memory adapter, imported by path (it is the package's default adapter, but
// passing the default itself makes the provider print a warning). Its types are not published.
declare module "oidc-provider/lib/adapters/memory_adapter.js" {
  import type { Adapter } from "oidc-provider"
  export function createMemoryAdapter(clockTolerance?: number): new (name: string) => Adapter
}
