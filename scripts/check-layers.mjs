// The layering rule for src/ (STYLE.md, "The shape we aim for"). Every file sits on a floor; data flows one
// way, down the floors. Three rules hold over every relative import, type-only ones included (`import type`,
// `export ... from`, dynamic `import()`, `typeof import("...")`): (1) upward: no import from a higher floor;
// (2) sibling: no import from another folder (or root file) on the same floor, so plug-ins stay apart and
// a shared piece goes down a floor; (3) cycle: no two files reach each other, found as strongly connected
// components of the file graph, each printed as a path. A file the FLOORS table does not place is an error,
// so a new folder gets its floor on purpose. Today's tree breaks some rules, so docs/layers-baseline.json
// lists the known violations: the check fails on any violation not listed AND on any listed one that no
// longer occurs, so the list only shrinks (`--update-baseline` rewrites it). Package imports are ignored.
// Usage: node scripts/check-layers.mjs [--update-baseline] [--json] [--map]. Exit 0 clean, 1 violations.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, posix, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

/**
 * Floors, lowest first. Each place is a folder (with a trailing slash, subfolders included) or a file,
 * relative to src/. Places on one floor are siblings: they may not import each other.
 */
export const FLOORS = [
  { floor: 0, places: ["lib/", "types.ts", "errors.ts", "env.ts"] },
  { floor: 1, places: ["jwt/"] },
  { floor: 2, places: ["providers/"] },
  { floor: 3, places: ["oauth/"] },
  { floor: 4, places: ["adapters/"] },
  { floor: 5, places: ["webauthn/", "provider-tokens/", "passwords/", "rate-limits/"] }, // the plug-ins; new features join this floor
  { floor: 6, places: ["redis/"] },
  { floor: 7, places: ["handler/"] },
  { floor: 8, places: ["integrations/", "cli/", "index.ts"] },
  { floor: 9, places: ["client/"] },
  { floor: 10, places: ["react/"] },
]

const SOURCE = /\.(ts|tsx|mts|cts)$/
const RULES = ["unplaced", "unresolved", "upward", "sibling", "cycle"]
/** Rules the baseline may not excuse: they are mistakes to fix now, not architecture debt. */
const ALWAYS_FAIL = new Set(["unplaced", "unresolved"])

/** The place (table entry) and floor of a file path relative to src/, or undefined when the table misses it. */
export function placeOf(file, floors = FLOORS) {
  let best
  for (const { floor, places } of floors) {
    for (const place of places) {
      const covers = place.endsWith("/") ? file.startsWith(place) : file === place
      if (covers && (!best || place.length > best.place.length)) best = { place, floor }
    }
  }
  return best
}

function listSources(root, dir = root) {
  const files = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) files.push(...listSources(root, path))
    else if (SOURCE.test(entry.name)) files.push(relative(root, path).split("\\").join("/"))
  }
  return files.sort()
}

/** Every module specifier in a file, as `{ specifier, typeOnly }`; comments and strings are not imports. */
export function importsOf(text, fileName = "file.ts") {
  const kind = fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind)
  const found = []
  const literal = (node) => (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined)
  const add = (node, typeOnly) => {
    const specifier = literal(node)
    if (specifier !== undefined) found.push({ specifier, typeOnly })
  }
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyImport(node.importClause))
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly)
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression, node.isTypeOnly)
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false)
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

function isTypeOnlyImport(clause) {
  if (!clause) return false // `import "./x.js"`: a side effect, a value edge
  if (clause.isTypeOnly) return true
  const named = clause.namedBindings
  return !clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((element) => element.isTypeOnly)
}

/** The src-relative file a relative specifier names (`./x.js` is `./x.ts` on disk), or undefined. */
function resolveSpecifier(from, specifier, known) {
  const target = posix.normalize(posix.join(posix.dirname(from), specifier))
  const stem = target.replace(/\.(m|c)?jsx?$/, "")
  const candidates = [target, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.cts`, `${stem}.d.ts`, `${target}/index.ts`, `${target}/index.tsx`]
  return candidates.find((candidate) => known.has(candidate))
}

/** The file graph of a source root: files, and one edge per (from, to) pair, type-only when every import of it is. */
export function readGraph(root) {
  const files = listSources(root)
  const known = new Set(files)
  const edges = new Map()
  const unresolved = []
  let imports = 0
  for (const from of files) {
    for (const { specifier, typeOnly } of importsOf(readFileSync(join(root, from), "utf8"), from)) {
      if (!specifier.startsWith(".")) continue // a package (or `#crypto-backend`): not a layer question
      imports++
      const to = resolveSpecifier(from, specifier, known)
      if (!to) {
        unresolved.push({ from, specifier })
        continue
      }
      const key = `${from} -> ${to}`
      const edge = edges.get(key)
      if (edge) edge.typeOnly &&= typeOnly
      else edges.set(key, { from, to, typeOnly })
    }
  }
  return { files, edges: [...edges.values()], unresolved, imports }
}

/** Strongly connected components with a cycle in them (Tarjan), each as its sorted member list. */
export function findCycles(files, edges) {
  const next = adjacency(files, edges)
  const index = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const components = []
  let counter = 0
  const connect = (file) => {
    index.set(file, counter)
    low.set(file, counter++)
    stack.push(file)
    onStack.add(file)
    for (const to of next.get(file)) {
      if (!index.has(to)) {
        connect(to)
        low.set(file, Math.min(low.get(file), low.get(to)))
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file), index.get(to)))
    }
    if (low.get(file) !== index.get(file)) return
    const members = []
    let member
    do {
      member = stack.pop()
      onStack.delete(member)
      members.push(member)
    } while (member !== file)
    if (members.length > 1 || next.get(file).includes(file)) components.push(members.sort())
  }
  for (const file of files) if (!index.has(file)) connect(file)
  return components.sort((a, b) => a[0].localeCompare(b[0])).map((members) => ({ members, path: cyclePath(members, next) }))
}

function adjacency(files, edges) {
  const next = new Map(files.map((file) => [file, []]))
  for (const { from, to } of edges) next.get(from)?.push(to)
  for (const targets of next.values()) targets.sort()
  return next
}

/**
 * A closed walk through every member of a component, the same every run: from the first member, to the
 * nearest member not yet visited (shortest path, ties by name), until all are in, then back to the start.
 */
function cyclePath(members, next) {
  const inside = new Set(members)
  const walk = [members[0]]
  const unvisited = new Set(members.slice(1))
  const goal = () => (unvisited.size > 0 ? (file) => unvisited.has(file) : (file) => file === members[0])
  do {
    for (const file of shortestPath(walk.at(-1), goal(), next, inside).slice(1)) {
      walk.push(file)
      unvisited.delete(file)
    }
  } while (unvisited.size > 0 || walk.at(-1) !== members[0])
  return walk
}

function shortestPath(start, isGoal, next, inside) {
  const cameFrom = new Map([[start, undefined]])
  const queue = [start]
  while (queue.length > 0) {
    const file = queue.shift()
    for (const to of next.get(file)) {
      if (!inside.has(to) || (cameFrom.has(to) && !(to === start && isGoal(to)))) continue
      if (isGoal(to)) return [...unwind(cameFrom, file), to]
      cameFrom.set(to, file)
      queue.push(to)
    }
  }
  throw new Error(`no path from ${start} inside its component`) // a component is strongly connected: unreachable
}

function unwind(cameFrom, file) {
  const path = []
  for (let at = file; at !== undefined; at = cameFrom.get(at)) path.unshift(at)
  return path
}

/** Every rule broken in a graph, each with a stable `key`: the line the baseline holds. */
export function findViolations(graph, floors = FLOORS) {
  const violations = []
  for (const file of graph.files) if (!placeOf(file, floors)) violations.push({ rule: "unplaced", key: `${file} (unplaced)`, from: file })
  for (const { from, specifier } of graph.unresolved) violations.push({ rule: "unresolved", key: `${from} -> ${specifier} (unresolved)`, from })
  for (const { from, to, typeOnly } of graph.edges) {
    const source = placeOf(from, floors)
    const target = placeOf(to, floors)
    if (!source || !target || source.place === target.place) continue
    const rule = target.floor > source.floor ? "upward" : target.floor === source.floor ? "sibling" : undefined
    if (rule) violations.push({ rule, key: `${from} -> ${to} (${rule})`, from, to, typeOnly, pair: `${source.place} -> ${target.place}`, floors: [source.floor, target.floor] })
  }
  for (const { members, path } of findCycles(graph.files, graph.edges)) {
    violations.push({ rule: "cycle", key: `${path.join(" -> ")} (cycle)`, from: members[0], members, path })
  }
  const order = (violation) => RULES.indexOf(violation.rule)
  return violations.sort((a, b) => order(a) - order(b) || a.key.localeCompare(b.key))
}

/**
 * The whole check on one source root: the graph, its violations, and how they compare with the baseline
 * (a list of keys). `fresh` are violations the baseline does not excuse; `stale` are baseline keys that
 * no longer occur. `ok` is true only when both are empty.
 */
export function checkLayers({ root, baseline = [], floors = FLOORS }) {
  const graph = readGraph(root)
  const violations = findViolations(graph, floors)
  const excused = new Set(baseline)
  const occurring = new Set(violations.map((violation) => violation.key))
  const fresh = violations.filter((violation) => ALWAYS_FAIL.has(violation.rule) || !excused.has(violation.key))
  const stale = baseline.filter((key) => !occurring.has(key))
  const typeOnly = graph.edges.filter((edge) => edge.typeOnly).length
  return { files: graph.files.length, imports: graph.imports, edges: graph.edges.length, typeOnlyEdges: typeOnly, violations, fresh, stale, baseline: baseline.length, ok: fresh.length === 0 && stale.length === 0 }
}

/** The baseline a result would write: every violation it may excuse, sorted. */
export function baselineOf(result) {
  return [...new Set(result.violations.filter((violation) => !ALWAYS_FAIL.has(violation.rule)).map((violation) => violation.key))].sort()
}

export function readBaseline(path) {
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")).violations : []
}

export function writeBaseline(path, keys) {
  const note = "Known layering violations (scripts/check-layers.mjs). This list only shrinks: fix one, then run `node scripts/check-layers.mjs --update-baseline`."
  writeFileSync(path, `${JSON.stringify({ note, violations: keys }, null, 2)}\n`)
}

function countByRule(violations) {
  return Object.fromEntries(RULES.map((rule) => [rule, violations.filter((violation) => violation.rule === rule).length]))
}

/** Folder pairs that break a rule, with how many file edges each: the map for moving code down. */
export function folderMap(violations) {
  const pairs = new Map()
  for (const { rule, pair, typeOnly } of violations) {
    if (!pair) continue
    const entry = pairs.get(`${pair} (${rule})`) ?? { pair, rule, edges: 0, typeOnly: 0 }
    entry.edges++
    if (typeOnly) entry.typeOnly++
    pairs.set(`${pair} (${rule})`, entry)
  }
  return [...pairs.values()].sort((a, b) => b.edges - a.edges || a.pair.localeCompare(b.pair))
}

function describe(violation) {
  if (violation.rule === "cycle") return `cycle of ${violation.members.length}: ${violation.path.join(" -> ")}`
  const kind = violation.typeOnly ? ", type-only" : ""
  return violation.floors ? `${violation.key} [floor ${violation.floors[0]} -> ${violation.floors[1]}${kind}]` : violation.key
}

function printReport(result, { baselinePath, showMap }) {
  const counts = countByRule(result.violations)
  console.log(`layers: ${result.files} files, ${result.imports} relative imports, ${result.edges} file edges (${result.typeOnlyEdges} type-only)`)
  console.log(`violations: ${RULES.map((rule) => `${rule} ${counts[rule]}`).join(", ")}`)
  console.log(`baseline ${baselinePath}: ${result.baseline} entries, ${result.baseline - result.stale.length} still occur`)
  if (showMap) {
    console.log("\nby folder pair (file edges):")
    for (const { pair, rule, edges, typeOnly } of folderMap(result.violations)) console.log(`  ${pair} (${rule}): ${edges}${typeOnly ? `, ${typeOnly} type-only` : ""}`)
    console.log("\ncycles:")
    for (const cycle of result.violations.filter((violation) => violation.rule === "cycle")) console.log(`  ${describe(cycle)}`)
  }
  if (result.fresh.length > 0) {
    console.error(`\n${result.fresh.length} violation(s) not in the baseline (src/ paths):`)
    for (const violation of result.fresh) console.error(`  ${describe(violation)}`)
  }
  if (result.stale.length > 0) {
    console.error(`\n${result.stale.length} baseline entr(y/ies) no longer occur (fixed, or a cycle changed shape): shrink the baseline with --update-baseline:`)
    for (const key of result.stale) console.error(`  ${key}`)
  }
}

function main(args) {
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..")
  const root = join(repo, "src")
  const baselinePath = join(repo, "docs", "layers-baseline.json")
  const result = checkLayers({ root, baseline: readBaseline(baselinePath) })
  if (args.includes("--update-baseline")) {
    const keys = baselineOf(result)
    writeBaseline(baselinePath, keys)
    console.log(`wrote ${keys.length} entries to ${relative(repo, baselinePath)}`)
    return result.fresh.some((violation) => ALWAYS_FAIL.has(violation.rule)) ? 1 : 0
  }
  if (args.includes("--json")) console.log(JSON.stringify({ ...result, byRule: countByRule(result.violations), folderMap: folderMap(result.violations) }, null, 2))
  else printReport(result, { baselinePath: relative(repo, baselinePath), showMap: args.includes("--map") })
  return result.ok ? 0 : 1
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2))
