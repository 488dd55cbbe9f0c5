/** A content coding a viewer file is stored in, besides its plain bytes. */
export type StoredEncoding = 'br' | 'gzip'

/** One viewer file as the pages know it; its bytes load on the first request for any asset. */
export interface ViewerAsset {
  /** File name with its content hash, e.g. `swagger-ui-bundle.0123456789abcdef.js`. */
  readonly fileName: string
  /** Content-Type header value. */
  readonly type: string
  /** First 16 hex digits of the SHA-256 of the file's plain bytes; the ETag derives from it. */
  readonly hash: string
  /** Size of the plain bytes. */
  readonly size: number
  /**
   * Pre-compressed forms shipped (`['br', 'gzip']`), or `[]` when the file ships as it is (small
   * files, PNG). When not empty, the plain bytes are the gzip form decompressed.
   */
  readonly encodings: readonly StoredEncoding[]
}

/** The generated body module: base64 bodies by content hash, `br` + `gzip` or `identity` alone. */
export type ViewerBodies = Readonly<
  Record<string, Readonly<Partial<Record<StoredEncoding | 'identity', string>>>>
>
