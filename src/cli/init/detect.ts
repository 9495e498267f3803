/**
 * Finds out what app `init` runs in, from package.json and a few files whose presence marks a
 * layout: the framework among the dependencies (Next.js first, since a Next app may also list
 * Express for a custom server), whether the sources are TypeScript, whether a Next.js app keeps its
 * App Router in `src/app`, which config file a Next.js app has, and whether package.json makes `.js`
 * files ES modules.
 */
import type { AppLayout, Framework } from "./plan.js"

/** Reads a file of the app, or answers `undefined` when it does not exist. */
export type ReadAppFile = (path: string) => string | undefined

/** In order of precedence: the dependency that marks each framework. */
const MARKERS: [dependency: string, framework: Framework][] = [
  ["next", "next"],
  ["@sveltejs/kit", "sveltekit"],
  ["hono", "hono"],
  ["express", "express"],
]

/** The names Next.js loads its config from. */
const NEXT_CONFIG_FILES = ["next.config.ts", "next.config.mts", "next.config.mjs", "next.config.js", "next.config.cjs"]

const NEXT_APP_FILES = ["layout.tsx", "layout.jsx", "layout.ts", "layout.js", "page.tsx", "page.jsx", "page.ts", "page.js"]

/** package.json's fields that `init` reads, or `undefined` when there is none (or it is not JSON). */
export function readManifest(read: ReadAppFile): { dependencies: Set<string>; esm: boolean } | undefined {
  const text = read("package.json")
  if (text === undefined) return undefined
  let manifest: unknown
  try {
    manifest = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof manifest !== "object" || manifest === null) return undefined
  const names = (field: string) => {
    const value = field in manifest ? (manifest as Record<string, unknown>)[field] : undefined
    return typeof value === "object" && value !== null ? Object.keys(value) : []
  }
  const esm = "type" in manifest && manifest.type === "module"
  return { dependencies: new Set([...names("dependencies"), ...names("devDependencies")]), esm }
}

/** The framework package.json depends on, or `undefined`. */
export function detectFramework(dependencies: Set<string>): Framework | undefined {
  return MARKERS.find(([dependency]) => dependencies.has(dependency))?.[1]
}

/** Whether a Next.js app keeps its App Router in `src/app` (only when `app/` has no layout or page). */
function nextUsesSrcDir(read: ReadAppFile): boolean {
  const has = (folder: string) => NEXT_APP_FILES.some((file) => read(`${folder}/${file}`) !== undefined)
  return !has("app") && has("src/app")
}

/** The app's layout for `framework` (detected or given with `--framework`). */
export function detectLayout(read: ReadAppFile, framework: Framework): AppLayout {
  const manifest = readManifest(read)
  return {
    framework,
    typescript: read("tsconfig.json") !== undefined,
    srcDir: framework === "next" && nextUsesSrcDir(read),
    esm: manifest?.esm ?? false,
    nextConfig: framework === "next" ? NEXT_CONFIG_FILES.find((file) => read(file) !== undefined) : undefined,
  }
}
