/**
 * Provider marks for the sign-in page, loaded per provider id. Each mark is its own module, so a
 * bundler that splits code ships only the marks of the providers an app configures, and only when
 * the sign-in page is rendered.
 */

const ID = /^[a-z0-9-]+$/

/** The provider's mark (SVG path data), or undefined when it has none. */
export async function logoPath(id: string): Promise<string | undefined> {
  if (!ID.test(id)) return undefined
  try {
    return ((await import(`../../providers/logos/${id}.ts`)) as { default: string }).default
  } catch {
    return undefined
  }
}
