/**
 * The status a response ended with, as the access log and `http_requests_total` report
 * it: the status sent, or 499 ("client closed request", nginx's convention) when the
 * client closed the connection before the response was sent, whatever status Express
 * had set by then (200 until a handler sets another).
 */
import type { Response } from 'express';

export const CLIENT_CLOSED_REQUEST = 499;

/** Call once the response is closed (its `close` event). */
export function endedStatus(res: Response): number {
  return res.writableFinished ? res.statusCode : CLIENT_CLOSED_REQUEST;
}
