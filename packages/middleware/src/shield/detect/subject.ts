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
