/**
 * The configuration `createAuth` was given, kept on what it returns under a registered symbol, so
 * the `latchkey` CLI (`schema`, `doctor`) can read an app's configuration from the module that
 * exports `handler` and `auth`. The property is non-enumerable: spreading, JSON and logging never
 * show it, and `Symbol.for` finds it across copies of the package (the CLI's and the app's).
 */
import type { AuthConfig } from "./options.js"

/**
 * The registered symbol under which `createAuth`'s result, its `handler` and its `auth` carry the
 * configuration they were made from.
 *
 * @example
 * ```ts
 * import { createAuth } from "latchkey"
 * const { handler } = createAuth({ providers: [], secret: "…" })
 * const config = (handler as unknown as Record<symbol, unknown>)[Symbol.for("latchkey.config")]
 * ```
 */
export const CONFIG_BRAND: unique symbol = Symbol.for("latchkey.config") as never

/** Marks each of `targets` as made from `config`, without making the mark enumerable or writable. */
export function brandWithConfig(config: AuthConfig<any, any>, ...targets: object[]): void {
  for (const target of targets) Object.defineProperty(target, CONFIG_BRAND, { value: config, enumerable: false, writable: false, configurable: false })
}

/** The configuration `value` was made from, when it carries the brand. */
export function brandedConfig(value: unknown): AuthConfig<any, any> | undefined {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return undefined
  const config = (value as Record<symbol, unknown>)[CONFIG_BRAND]
  return typeof config === "object" && config !== null ? (config as AuthConfig<any, any>) : undefined
}

/**
 * Set on `globalThis` while the CLI imports an app's auth module. `Symbol.for` again, because the
 * CLI and the app's `latchkey/next` or `latchkey/sveltekit` may be separate copies of this file.
 */
const READING_CONFIG: unique symbol = Symbol.for("latchkey.reading-config") as never

/**
 * Runs `read` (the CLI's import of the app's auth module) with the framework integrations told to
 * defer their configuration checks, as they do during a production build: `doctor` is run right
 * after `init`, before the provider ids are filled in, and it must read the configuration to report
 * each missing variable as a finding of its own instead of stopping at the first.
 */
export async function whileReadingConfig<T>(read: () => Promise<T>): Promise<T> {
  const global = globalThis as Record<symbol, unknown>
  global[READING_CONFIG] = true
  try {
    return await read()
  } finally {
    delete global[READING_CONFIG]
  }
}

/** Whether the CLI is importing the app's auth module (see {@link whileReadingConfig}). */
export function readingConfig(): boolean {
  return (globalThis as Record<symbol, unknown>)[READING_CONFIG] === true
}
