import type { Adapter } from "latchkey/adapters"
/** A fresh in-memory PGlite database with the Auth.js Drizzle tables, and its adapter. */
export function demoDatabase(): Promise<{ adapter: Adapter; close(): Promise<void> }>
