/**
 * Status of a request whose client closed the connection before the answer (nginx's convention):
 * it never reaches the client, it only tells the access log what happened.
 */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * Whether `error` means the client went away while its request was read: it closed the connection
 * mid-body, or the connection was closed under it after broken framing. Not a server fault, so
 * logged as what it is, without a stack.
 */
export function clientAborted(error: unknown, request: Request): boolean {
  return (error instanceof Error && (error as { code?: unknown }).code === 'ECONNRESET') || request.signal.aborted;
}

export function clientClosedRequest(): Response {
  return new Response(null, { status: CLIENT_CLOSED_REQUEST });
}
