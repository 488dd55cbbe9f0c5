import type { WebhookInfo } from './webhook'

export {
  MAX_NONCE_LENGTH,
  MemoryNonceStore,
  type MemoryNonceStoreOptions,
  type NonceStore,
} from '../internal/stores/nonce-store'
export type { WebhookOptions } from './config'
export type { WebhookSecret } from './keys'
export type { CustomWebhookPreset, WebhookPresetName } from './presets'
export { type SignedWebhook, type SignWebhookOptions, signWebhook } from './sign'
export { type WebhookInfo, webhook } from './webhook'

declare module 'hono' {
  interface ContextVariableMap {
    /** The verified webhook's `{ id?, timestamp?, preset }`, set by `webhook` (default `contextKey`). */
    webhook: WebhookInfo
  }
}
