// The one place that says which app the browser tests drive. Switch the import to the example app
// (`../../examples/app`) once it exists; everything else reads the spec the app serves.
export { createApp } from './fixture-app'

/** Paths the app under test uses (the `openapi()` defaults). */
export const paths = {
  spec: '/openapi.json',
  explorer: '/explorer',
  reference: '/reference',
} as const
