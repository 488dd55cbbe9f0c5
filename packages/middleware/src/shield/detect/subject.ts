/** Where a value came from. `'name'` is a parameter, field, cookie or object-key name. */
export type InputKind = 'path' | 'query' | 'header' | 'user-agent' | 'cookie' | 'body' | 'name'

/** One input value as every detector sees it. */
export interface Subject {
  /** The value as received. */
  readonly raw: string
  /** Decoded (percent, entities, escapes, fullwidth), case kept. */
  readonly text: string
  /** `text` in lower case. */
  readonly lower: string
  /**
   * The name the value came under (query parameter, form field, JSON key, cookie), as received,
   * when the caller knows it: some attacks are only told by name and value together (a file
   * path parameter carrying a URL).
   */
  readonly name?: string
}

export type Paranoia = 1 | 2
