// `migrate` and `doctor` load the app's auth.ts, which (as `latchkey init` writes it) opens its PGlite
// folder and keeps the client on globalThis, one per folder. The CLI then opened the same folder with
// a second client in the same process: two PostgreSQL servers on one data directory. It now takes the
// app's client when there is one for that folder (however the folder is spelt), and leaves it open.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { openPglite } from "../../src/cli/schema/drivers/postgres.js"

class FakePGlite {
  static made: FakePGlite[] = []
  closed = false
  constructor(readonly dir?: string) {
    FakePGlite.made.push(this)
  }
  async query() {
    return { rows: [] }
  }
  async transaction<T>(run: (tx: { query(text: string): Promise<unknown> }) => Promise<T>): Promise<T> {
    return run({ query: async () => undefined })
  }
  async close() {
    this.closed = true
  }
}

const load = async () => ({ PGlite: FakePGlite })
const shared = globalThis as typeof globalThis & { pgliteClients?: Map<string, unknown> }

const root = mkdtempSync(join(tmpdir(), "latchkey-pglite-shared-"))

afterEach(() => {
  delete shared.pgliteClients
  FakePGlite.made = []
  rmSync(root, { recursive: true, force: true })
})

describe("the CLI on a PGlite folder the app's auth.ts already opened", () => {
  it("uses the app's client for that folder, however spelt, and does not close it", async () => {
    const apps = new FakePGlite(`${root}/app/../pglite`)
    FakePGlite.made = []
    shared.pgliteClients = new Map([[`${root}/app/../pglite`, apps]])
    const database = await openPglite(`${root}/pglite`, load)
    await database.readColumns([])
    await database.close()
    expect(FakePGlite.made).toEqual([])
    expect(apps.closed).toBe(false)
  })

  it("opens and closes its own client for another folder", async () => {
    shared.pgliteClients = new Map([[`${root}/pglite`, new FakePGlite(`${root}/pglite`)]])
    FakePGlite.made = []
    const database = await openPglite(`${root}/other`, load)
    await database.close()
    expect(FakePGlite.made.map((made) => made.dir)).toEqual([`${root}/other`])
    expect(FakePGlite.made[0]!.closed).toBe(true)
  })
})
