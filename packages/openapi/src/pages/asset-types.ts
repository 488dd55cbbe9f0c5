/** One viewer file, held in memory so serving it needs no file system. */
export interface ViewerAsset {
  /** File name with its content hash, e.g. `swagger-ui-bundle.0123456789abcdef.js`. */
  readonly fileName: string
  /** Content-Type header value. */
  readonly type: string
  /** First 16 hex digits of the SHA-256 of the served bytes; also the ETag. */
  readonly hash: string
  /** `base64` for binary files (decoded once, on first request). */
  readonly encoding: 'utf8' | 'base64'
  readonly body: string
}
