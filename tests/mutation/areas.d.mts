// Types of areas.mjs (plain JavaScript, so tools/mutate.mjs and Stryker's config read it as is).
export interface MutationArea {
  /** Globs of the files Stryker mutates (`!` excludes). */
  readonly mutate: readonly string[]
  /** Globs of the test files that may kill a mutant there. */
  readonly tests: string[]
}
export declare const AREAS: Readonly<Record<string, MutationArea>>
export declare function currentArea(): MutationArea & { readonly name: string }
