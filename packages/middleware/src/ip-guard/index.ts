export { type IpGuardOptions, ipGuard } from './ip-guard'
