import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, relative } from "node:path"
import { defineConfig } from "tsup"
import ts from "typescript"
import { writePasskeyScript } from "./scripts/passkey-script.mjs"
import { providerModules } from "./scripts/provider-catalog.mjs"

// Where the build goes: dist/, or the private folder scripts/build.mjs builds in before it swaps
// the finished build into dist/ (so a suite reading dist/ never sees it half-written).
const OUT = process.env.LATCHKEY_BUILD_DIR ?? "dist"

// One entry per provider module, so `latchkey/providers/<id>` loads that provider alone.
const providerEntries = Object.fromEntries(providerModules().map(({ name, path }) => [`providers/${name}`, path]))

// The subpaths that have types: every entry but the crypto backends and the CLI.
const typedEntries: Record<string, string> = { index: "src/index.ts", jwt: "src/jwt/index.ts", types: "src/types.ts", providers: "src/providers/index.ts", ...providerEntries, oauth: "src/oauth/index.ts", adapters: "src/adapters/index.ts", "provider-tokens": "src/provider-tokens/index.ts", redis: "src/redis/index.ts", "rate-limits": "src/rate-limits/index.ts", node: "src/integrations/node.ts", webauthn: "src/webauthn/index.ts", passwords: "src/passwords/index.ts", next: "src/integrations/next/index.ts", sveltekit: "src/integrations/sveltekit/index.ts", client: "src/client/index.ts", react: "src/react/index.ts" }

/**
 * The declarations, one named file per source file under dist/dts/ (mirroring src/), and for each
 * entry a dist/<entry>.d.ts that re-exports its module. A declaration bundle (tsup's `dts`) puts
 * shared types in hashed chunks under one-letter aliases, so a consumer's type error would read
 * `import(".../errors-Cn5ahcpT").a` where it should read `Adapter`. Type errors fail the build.
 * package.json points `latchkey/types` at dist/dts/types.d.ts itself, not at its stub: TypeScript
 * applies `declare module "latchkey/types"` to a re-exporting stub only when the program also
 * imports the stub, and the augmentation file often imports nothing else from it.
 */
function emitDeclarations(entries: Record<string, string>): void {
  const { config } = ts.readConfigFile("tsconfig.json", (path) => ts.sys.readFile(path))
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, process.cwd())
  const program = ts.createProgram(Object.values(entries), {
    ...options,
    noEmit: false,
    noEmitOnError: true,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    rootDir: "src",
    outDir: `${OUT}/dts`,
  })
  const { diagnostics, emitSkipped } = program.emit()
  if (emitSkipped || diagnostics.length > 0) {
    const host = { getCanonicalFileName: (name: string) => name, getCurrentDirectory: () => process.cwd(), getNewLine: () => "\n" }
    throw new Error(`declarations not emitted:\n${ts.formatDiagnostics(diagnostics, host)}`)
  }
  const checker = program.getTypeChecker()
  for (const [name, source] of Object.entries(entries)) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(source)!)!
    const hasDefault = checker.getExportsOfModule(module).some((symbol) => symbol.name === "default")
    const target = relative(dirname(`${OUT}/${name}`), `${OUT}/dts/${relative("src", source).replace(/\.ts$/, ".js")}`)
    const specifier = target.startsWith(".") ? target : `./${target}`
    mkdirSync(dirname(`${OUT}/${name}`), { recursive: true })
    writeFileSync(`${OUT}/${name}.d.ts`, `export * from "${specifier}"\n${hasDefault ? `export { default } from "${specifier}"\n` : ""}`)
  }
}

/**
 * Entries that are client modules for React Server Components: esbuild drops a module's
 * `"use client"` when it bundles, so the directive is written back as the first line of each
 * built entry (its chunks need none: the entry is the boundary). Add an entry's name here.
 */
const USE_CLIENT_ENTRIES = ["react"]

function markClientModules(): void {
  for (const name of USE_CLIENT_ENTRIES) {
    const file = `${OUT}/${name}.js`
    const code = readFileSync(file, "utf8")
    if (!code.startsWith('"use client"')) writeFileSync(file, `"use client";\n${code}`)
  }
}

// The served passkey script is bundled (with @simplewebauthn/browser) into a string module first,
// so latchkey/webauthn always carries the script built from the current client code.
writePasskeyScript()

export default defineConfig({
  entry: {
    index: "src/index.ts",
    jwt: "src/jwt/index.ts",
    types: "src/types.ts",
    providers: "src/providers/index.ts",
    ...providerEntries,
    oauth: "src/oauth/index.ts",
    adapters: "src/adapters/index.ts",
    "provider-tokens": "src/provider-tokens/index.ts",
    redis: "src/redis/index.ts",
    "rate-limits": "src/rate-limits/index.ts",
    node: "src/integrations/node.ts",
    webauthn: "src/webauthn/index.ts",
    passwords: "src/passwords/index.ts",
    next: "src/integrations/next/index.ts",
    sveltekit: "src/integrations/sveltekit/index.ts",
    client: "src/client/index.ts",
    react: "src/react/index.ts",
    "backend/node": "src/jwt/backend/node.ts",
    "backend/webcrypto": "src/jwt/backend/webcrypto.ts",
    "passwords/kdf-node": "src/passwords/kdf/node.ts",
    "passwords/kdf-webcrypto": "src/passwords/kdf/webcrypto.ts",
    "passwords/kdf-workerd": "src/passwords/kdf/workerd.ts",
    cli: "src/cli/node.ts",
    "handler/development": "src/handler/development.ts",
    "handler/production": "src/handler/production.ts",
  },
  format: ["esm"],
  outDir: OUT,
  // After the JavaScript (and the clean), so the declarations land in a fresh dist/.
  onSuccess: async () => (markClientModules(), emitDeclarations(typedEntries)),
  platform: "neutral",
  target: "es2022",
  splitting: true,
  treeshake: true,
  clean: true,
  // Resolved by the consumer's runtime or bundler through package.json "imports", so each
  // environment picks its own crypto backend (and its own password hashing backend), and a
  // production build leaves the development-only hints out (#development).
  // The frameworks are the app's own (optional peers): next/*, react and @sveltejs/kit stay imports.
  external: ["#crypto-backend", "#password-kdf", "#development", /^node:/, /^next(\/|$)/, /^react(-dom)?(\/|$)/, /^@sveltejs\/kit(\/|$)/],
  // \`cookie\` is built in, as Auth.js vendors it: SvelteKit's Vite plugin bundles latchkey (its
  // \`svelte\` condition) and leaves latchkey's own imports to be resolved from the app's root at run
  // time, where SvelteKit 2 has hoisted its \`cookie\` 0.6 (no \`parseCookie\`, no \`stringifySetCookie\`).
  noExternal: ["cookie"],
  removeNodeProtocol: false,
})
