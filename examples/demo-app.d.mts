/** Starts the demo's OpenID provider and app; `port` 0 picks a free one. */
export function startDemo(options?: { port?: number; secret?: string; database?: { adapter: import("latchkey/adapters").Adapter; close(): Promise<void> } }): Promise<{ url: string; issuer: string; close(): Promise<void> }>
