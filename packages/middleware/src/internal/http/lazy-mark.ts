/** Requests `lazy-request.ts` put in `c.req.raw`: the node-server adapter reads no symbol of them. */
export const lazyRequests = new WeakSet<object>()
