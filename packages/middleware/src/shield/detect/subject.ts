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
}

export type Paranoia = 1 | 2
