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
