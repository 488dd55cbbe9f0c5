// The default key of rateLimit and concurrencyLimit lives in internal/ (both use it); its public
// home stays here, where users import it from.
export { clientIpKey, isIPv6Subnet } from '../internal/network/client-ip-key'
