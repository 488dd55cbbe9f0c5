export {}
export * from './jwt-auth'
export * from './api-key'
export * from './rate-limit'
export * from './redis'
export * from './sessions'
