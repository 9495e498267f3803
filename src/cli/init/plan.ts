/**
 * The vocabulary of `latchkey init`: which app it sets up (framework and layout), what the user
 * chose (providers, database), and what it will write. Detection, the templates and the command
 * all speak it, so none of them needs another's internals.
 */
import type { CatalogProvider } from "./provider-catalog.js"

/** The frameworks `init` knows how to wire. */
export type Framework = "next" | "sveltekit" | "express" | "hono"

/** Where users and sessions live: PostgreSQL, PGlite (PostgreSQL in the process), or nowhere (JWT sessions). */
export type Database = "postgres" | "pglite" | "none"

/** The app as found on disk. */
export interface AppLayout {
  framework: Framework
  /** TypeScript sources (a tsconfig.json is present) or JavaScript. */
  typescript: boolean
  /** Next.js: the App Router lives in `src/app` rather than `app`. */
  srcDir: boolean
  /** package.json says `"type": "module"`, so a `.js` file may use `import`. */
  esm: boolean
  /** Next.js: the config file the app already has (`next.config.ts`, `.mjs`, …), if any. */
  nextConfig?: string
}

/** Everything `init` needs to write the files. */
export interface InitChoices {
  layout: AppLayout
  providers: CatalogProvider[]
  database: Database
}

/** One file `init` creates; an existing file is never replaced. */
export interface PlannedFile {
  path: string
  contents: string
  /** What the user should do by hand when the file already exists (for example, a line to add). */
  ifExists?: string
  /** What `init` adds itself to the file when it exists (in the shape its generator writes): else `ifExists` is printed. */
  addition?: FileAddition
}

/**
 * A few lines `init` adds to a file the app already has. Only a file its generator wrote (such as
 * create-next-app's config or sv create's app.d.ts), or one like it, is edited: in any other
 * shape a wrong guess would break the app, so the user gets the lines instead.
 */
export interface FileAddition {
  /** What is added, as the output names it. */
  what: string
  /** The file with the addition; the same text when it has it already; `undefined` when its shape is not one `init` edits. */
  addTo(existing: string): string | undefined
}

/** The files for one framework, where its dev server answers, and the steps left to the user. */
export interface FrameworkPlan {
  files: PlannedFile[]
  /** The dev server's origin, the default `AUTH_URL`. */
  devOrigin: string
  nextSteps: string[]
}

/** The framework names the `--framework` flag accepts, each with the framework it means. */
export const FRAMEWORK_NAMES: Record<string, Framework> = {
  next: "next",
  nextjs: "next",
  "next.js": "next",
  sveltekit: "sveltekit",
  "svelte-kit": "sveltekit",
  express: "express",
  hono: "hono",
}

/** The framework's name as people write it. */
export const FRAMEWORK_TITLES: Record<Framework, string> = { next: "Next.js (App Router)", sveltekit: "SvelteKit", express: "Express", hono: "Hono" }
