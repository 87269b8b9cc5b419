/** The caller's address for rate limits. Only with TRUST_PROXY is X-Forwarded-For believed (its last hop). */
export function clientIp(headers: Headers, socketAddress: string, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = headers.get('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded && forwarded.length <= 64) return forwarded;
  }
  return socketAddress;
}
