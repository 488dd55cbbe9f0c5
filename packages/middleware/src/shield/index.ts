export type { ShieldBanOptions, ShieldDetection, ShieldOptions } from './config'
export type { AttackCategory } from './detect'
export { UNREAD_HEADERS } from './inputs'
export { shield } from './shield'
