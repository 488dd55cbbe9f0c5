export { type ContentTypeGuardOptions, contentTypeGuard } from './content-type-guard'
