/**
 * Response bodies in tests are checked with `toEqual` against literal shapes, so they
 * are read loosely typed here, in one place.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonBody = any;

export function bodyOf(response: Response): Promise<JsonBody> {
  return response.json() as Promise<JsonBody>;
}
