export function providerModules(): { name: string; path: string }[]
export function renderIds(ids: { oauth: string[]; other: string[] }): string
export function renderProviderDocs(configs: object[]): string
