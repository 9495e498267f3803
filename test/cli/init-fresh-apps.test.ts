// `latchkey init` in apps as their generators leave them (create-next-app, sv create), with each
// database: what init writes must build after its own install line, in files it edits only when
// they still have the generator's shape, and the steps it prints must work when pasted. Each case
// is one a newcomer's review hit in a real app.
import { parseEnv } from "node:util"
import { describe, expect, it } from "vitest"
import { typecheck } from "../docs/support.js"
import { manifest, tempApp } from "./init-support.js"

const NEXT = manifest({ next: "16.4.6", react: "19.3.1", "react-dom": "19.3.1" }, { devDependencies: { typescript: "^5", "@types/node": "^20" } })
const NEXT_APP = { "package.json": NEXT, "tsconfig.json": "{}", "app/layout.tsx": "", "app/page.tsx": "" }

/** create-next-app's next.config.ts: its template, and what it writes with its defaults today (Next.js 16.4). */
const CREATE_NEXT_APP_CONFIG = 'import type { NextConfig } from "next";\n\nconst nextConfig: NextConfig = {\n  /* config options here */\n};\n\nexport default nextConfig;\n'
const CREATE_NEXT_APP_16_4_CONFIG = `import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  /* config options here */
  cacheComponents: true,
  partialPrefetching: true,
  turbopack: {
    rules: {
      "*.css": {
        loaders: ["@tailwindcss/turbopack"],
        as: "*.css",
      },
    },
  },
};

export default nextConfig;
`
const PGLITE_EXTERNAL = 'serverExternalPackages: ["@electric-sql/pglite"],'

/** sv create's src/app.d.ts (minimal template, TypeScript), tabs and all. */
const SV_CREATE_APP_TYPES = `// See https://svelte.dev/docs/kit/types#app.d.ts
// for information about these interfaces
declare global {
\tnamespace App {
\t\t// interface Error {}
\t\t// interface Locals {}
\t\t// interface PageData {}
\t\t// interface PageState {}
\t\t// interface Platform {}
\t}
}

export {};
`
const SV_CREATE = { "package.json": manifest({}, { type: "module", devDependencies: { "@sveltejs/kit": "^2.63.0", svelte: "^5", "svelte-check": "^4", typescript: "^6" } }), "tsconfig.json": "{}", "src/app.d.ts": SV_CREATE_APP_TYPES, "src/app.html": "" }

/** What SvelteKit generates for `$env/dynamic/private` (in .svelte-kit/ambient.d.ts), so the module typechecks as in the app. */
const SVELTEKIT_ENV = 'declare module "$env/dynamic/private" {\n  export const env: { [key: `PUBLIC_${string}`]: undefined; [key: `${string}`]: string | undefined }\n}\n'

function printed(app: { out: string[] }): string {
  return app.out.join("\n")
}

describe("latchkey init --database postgres: the module builds after the printed install line", () => {
  it("a TypeScript app installs pg's types too, as a dev dependency", async () => {
    const app = tempApp(NEXT_APP)
    expect(await app.init("--database", "postgres", "--yes")).toBe(0)
    expect(printed(app)).toContain("Install: npm install latchkey @auth/pg-adapter pg && npm install -D @types/pg")
  })

  it("a JavaScript app, or one that has @types/pg already, is not told to install it", async () => {
    const javascript = tempApp({ "package.json": manifest({ next: "16.4.6" }), "app/layout.jsx": "" })
    expect(await javascript.init("--database", "postgres", "--yes")).toBe(0)
    expect(printed(javascript)).toContain("Install: npm install latchkey @auth/pg-adapter pg\n")
    expect(printed(javascript)).not.toContain("@types/pg")
    const typed = tempApp({ ...NEXT_APP, "package.json": manifest({ next: "16.4.6", pg: "^8" }, { devDependencies: { "@types/pg": "^8" } }) })
    expect(await typed.init("--database", "postgres", "--yes")).toBe(0)
    expect(printed(typed)).toContain("Install: npm install latchkey @auth/pg-adapter\n")
  })

  it("prints a migrate line that works pasted: no $DATABASE_URL from the shell, the CLI reads it from .env.local", async () => {
    const app = tempApp(NEXT_APP)
    expect(await app.init("--database", "postgres", "--yes")).toBe(0)
    expect(printed(app)).toContain("`npx latchkey migrate --adapter pg --with database-sessions`")
    expect(printed(app)).toMatch(/reads DATABASE_URL from \.env\.local/)
    expect(printed(app)).not.toContain("$DATABASE_URL")
  })
})

describe("latchkey init in a SvelteKit app made by sv create", () => {
  it("reads the environment through $env/dynamic/private, never process.env (sv create apps have no @types/node)", async () => {
    const files: Record<string, string> = { "sveltekit-env.d.ts": SVELTEKIT_ENV }
    for (const [database, providers] of [["postgres", "github"], ["pglite", "github"], ["pglite", "github,password"], ["postgres", "password"]] as const) {
      const app = tempApp(SV_CREATE)
      expect(await app.init("--provider", providers, "--database", database, "--yes")).toBe(0)
      const auth = app.read("src/auth.ts")!
      expect(auth, `${database} ${providers}`).not.toContain("process.")
      expect(auth).toContain('import { env } from "$env/dynamic/private"')
      files[`init-sveltekit-${database}-${providers.replace(",", "-")}.ts`] = auth
    }
    expect(files["init-sveltekit-postgres-github.ts"]).toContain("new pg.Pool({ connectionString: env.DATABASE_URL })")
    expect(files["init-sveltekit-pglite-github.ts"]).toContain('const dir = env.PGLITE_DIR ?? ".data/pglite"')
    expect(typecheck(files)).toEqual([])
  }, 60_000)

  it("without a database or passwords, reads no environment itself and imports nothing for it", async () => {
    const app = tempApp(SV_CREATE)
    expect(await app.init("--yes")).toBe(0)
    expect(app.read("src/auth.ts")).not.toContain("$env")
  })

  it("declares locals.auth() in sv create's own app.d.ts, in its indentation, and says it did", async () => {
    const app = tempApp(SV_CREATE)
    expect(await app.init("--yes")).toBe(0)
    expect(app.read("src/app.d.ts")).toBe(`// See https://svelte.dev/docs/kit/types#app.d.ts
// for information about these interfaces
import type { LatchkeyLocals } from "latchkey/sveltekit"

declare global {
\tnamespace App {
\t\t// interface Error {}
\t\tinterface Locals extends LatchkeyLocals {}
\t\t// interface PageData {}
\t\t// interface PageState {}
\t\t// interface Platform {}
\t}
}

export {};
`)
    expect(printed(app)).toMatch(/updated {2}src\/app\.d\.ts \(Locals extends LatchkeyLocals\)/)
    expect(printed(app)).not.toContain("skipped  src/app.d.ts")
    expect(typecheck({ "app.d.ts": app.read("src/app.d.ts")! })).toEqual([])
    // A second run finds it done and leaves it.
    const before = app.read("src/app.d.ts")
    expect(await app.init("--yes")).toBe(0)
    expect(app.read("src/app.d.ts")).toBe(before)
    expect(printed(app)).toMatch(/skipped {2}src\/app\.d\.ts \(it already has Locals extends LatchkeyLocals\)/)
  }, 60_000)

  it("leaves an app.d.ts that declares Locals its own way, and prints the lines to add", async () => {
    const own = SV_CREATE_APP_TYPES.replace("// interface Locals {}", "interface Locals { user: string }")
    const app = tempApp({ ...SV_CREATE, "src/app.d.ts": own })
    expect(await app.init("--yes")).toBe(0)
    expect(app.read("src/app.d.ts")).toBe(own)
    expect(printed(app)).toContain('skipped  src/app.d.ts (it exists): declare latchkey\'s locals in it: import type { LatchkeyLocals } from "latchkey/sveltekit", and `interface Locals extends LatchkeyLocals {}` in namespace App')
  })
})

describe("latchkey init --database pglite in a Next.js app: PGlite stays out of the bundle", () => {
  for (const [shape, config] of [["its template", CREATE_NEXT_APP_CONFIG], ["Next.js 16.4's defaults", CREATE_NEXT_APP_16_4_CONFIG]] as const) {
    it(`adds serverExternalPackages to create-next-app's next.config.ts (${shape}), changing nothing else`, async () => {
      const app = tempApp({ ...NEXT_APP, "next.config.ts": config })
      expect(await app.init("--database", "pglite", "--yes")).toBe(0)
      const updated = app.read("next.config.ts")!
      expect(updated).toMatch(new RegExp(`const nextConfig: NextConfig = \\{\\n(  //.*\\n)+  ${PGLITE_EXTERNAL.replace(/[[\]()]/g, "\\$&")}\\n  /\\* config options here \\*/\\n`))
      expect(updated.replace(/\n(  \/\/.*\n)+  serverExternalPackages: .*/, "")).toBe(config)
      expect(printed(app)).toMatch(/updated {2}next\.config\.ts \(serverExternalPackages: \["@electric-sql\/pglite"\]\)/)
      expect(typecheck({ "next.config.ts": updated })).toEqual([])
      // A second run finds it done and leaves it.
      expect(await app.init("--database", "pglite", "--yes")).toBe(0)
      expect(app.read("next.config.ts")).toBe(updated)
    }, 60_000)
  }

  it("writes next.config.ts, or next.config.mjs in JavaScript, when the app has none", async () => {
    const typescript = tempApp(NEXT_APP)
    expect(await typescript.init("--database", "pglite", "--yes")).toBe(0)
    expect(typescript.read("next.config.ts")).toContain(PGLITE_EXTERNAL)
    expect(printed(typescript)).toContain("created  next.config.ts")
    expect(typecheck({ "next.config.ts": typescript.read("next.config.ts")! })).toEqual([])
    const javascript = tempApp({ "package.json": manifest({ next: "16.4.6" }), "app/layout.jsx": "" })
    expect(await javascript.init("--database", "pglite", "--yes")).toBe(0)
    expect(javascript.read("next.config.mjs")).toContain(PGLITE_EXTERNAL)
    expect(javascript.read("next.config.mjs")).toContain("export default nextConfig")
  }, 60_000)

  it("edits the config file the app has (next.config.mjs, an empty object)", async () => {
    const config = '/** @type {import("next").NextConfig} */\nconst nextConfig = {};\n\nexport default nextConfig;\n'
    const app = tempApp({ ...NEXT_APP, "next.config.mjs": config })
    expect(await app.init("--database", "pglite", "--yes")).toBe(0)
    expect(app.exists("next.config.ts")).toBe(false)
    expect(app.read("next.config.mjs")).toMatch(/^\/\*\* @type \{import\("next"\)\.NextConfig\} \*\/\nconst nextConfig = \{\n(  \/\/.*\n)+  serverExternalPackages: \["@electric-sql\/pglite"\],\n\};\n\nexport default nextConfig;\n$/)
  })

  it("leaves a config it cannot edit safely, and prints the exact line to add", async () => {
    const config = 'import type { NextConfig } from "next"\nimport { withSentry } from "./sentry"\n\nexport default withSentry({ reactStrictMode: true } satisfies NextConfig)\n'
    const app = tempApp({ ...NEXT_APP, "next.config.ts": config })
    expect(await app.init("--database", "pglite", "--yes")).toBe(0)
    expect(app.read("next.config.ts")).toBe(config)
    expect(printed(app)).toContain(`skipped  next.config.ts (it exists): add \`${PGLITE_EXTERNAL}\` to its config object`)
    const other = tempApp({ ...NEXT_APP, "next.config.ts": CREATE_NEXT_APP_CONFIG.replace("/* config options here */", 'serverExternalPackages: ["sharp"],') })
    expect(await other.init("--database", "pglite", "--yes")).toBe(0)
    expect(other.read("next.config.ts")).toContain('serverExternalPackages: ["sharp"],')
    expect(printed(other)).toContain(`skipped  next.config.ts (it exists): add \`${PGLITE_EXTERNAL}\` to its config object (or "@electric-sql/pglite" to the serverExternalPackages it has)`)
  })

  it("touches no next.config without PGlite", async () => {
    const app = tempApp({ ...NEXT_APP, "next.config.ts": CREATE_NEXT_APP_CONFIG })
    expect(await app.init("--database", "postgres", "--yes")).toBe(0)
    expect(app.read("next.config.ts")).toBe(CREATE_NEXT_APP_CONFIG)
    expect(printed(app)).not.toContain("next.config")
    expect(Object.keys(parseEnv(app.read(".env.local")!))).toContain("DATABASE_URL")
  })
})
