/**
 * @palisade/openapi/spec — the package without the explorer and reference pages: `openapi()`
 * serves the document only, and nothing here imports the pages, so a bundle (a Worker's) leaves
 * out their 2 MB of viewer files. Everything else is the root entry's API, name for name: both
 * entries export the one list in ./api.ts.
 */

export { openapi } from '../app/spec-only'
export * from './api'
