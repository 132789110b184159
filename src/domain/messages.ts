/**
 * Every client-facing message, word for word. Each is shown in an example
 * of openapi/openapi.yaml (or openapi/admin.yaml); those marked "contract" are fixed there word
 * for word by the contract the API was built to.
 */
/** The most of a client's path a message or a log line quotes: a path may run to Node's 16 KiB header limit. */
export const QUOTED_PATH_MAX_CHARS = 200;

export const MESSAGES = {
  snapCreated: 'Snap generated successfully', // contract
  commsCreated: 'Communication analysis generated successfully',
  invalidApiKey: 'Invalid or inactive api key', // contract
  insufficientCredits: 'Insufficient API credits. Please add more credits to your account to continue.', // contract
  snapGenerationFailed: 'Failed to generate snap Please try again later', // contract
  visionarySecondary: 'Secondary profile predicted as Visionary which is not allowed please try it again', // contract
  commsGenerationFailed: 'Failed to generate communication analysis Please try again later',
  tooManyRequests: 'ThrottlerException: Too Many Requests', // contract
  snapNotFound: 'Snap not found',
  snapWithoutProfile: 'Snap has no profile to advise on: its notes held no behavioural evidence. Create a snap with notes on how the person works, decides or deals with others',
  invalidJson: 'Request body is not valid JSON',
  invalidUtf8: 'Request body is not valid UTF-8',
  unsupportedMediaType: 'Content-Type must be application/json',
  unsupportedContentEncoding: 'Content-Encoding must be gzip, deflate, br or identity',
  notDecompressible: 'Request body could not be decompressed with its Content-Encoding',
  serviceUnavailable: 'Service temporarily unavailable',
  internalError: 'Internal server error',
  idempotencyInProgress: 'A request with this Idempotency-Key is still being processed',
  idempotencyMismatch: 'Idempotency-Key was already used with a different request',
  invalidAdminToken: 'Invalid admin token',
  tooManyAdminTokenFailures: 'Too many requests with a wrong admin token from this address',
  accountNotFound: 'Account not found',
  keyNotFound: 'API key not found',
  usageRangeEmpty: 'to must be after from',
  usageRangeTooWide: (granularity: string, days: number) => `A range by the ${granularity} covers at most ${days} days`,
  balanceTooLarge: (maxBalance: number) => `amount would take the balance above ${maxBalance} credits`,
  tooManyTokens: (names: string, tokens: number, budget: number) => `${names} are too long for the model together: an estimated ${tokens} tokens, at most ${budget} (a Chinese, Japanese or Korean character counts as 3)`,
  nestedTooDeeply: (maxDepth: number) => `Request body must not be nested deeper than ${maxDepth} levels`,
  payloadTooLarge: (limitBytes: number) => `Request body must not be larger than ${limitBytes} bytes`,
  routeNotFound: (method: string, path: string) => `Cannot ${method} ${path.slice(0, QUOTED_PATH_MAX_CHARS)}`,
  adminApiOff: 'The admin API is off: ADMIN_TOKEN is not set',
  methodNotAllowed: (method: string, path: string) => `Method ${method} is not allowed on ${path.slice(0, QUOTED_PATH_MAX_CHARS)}`,
} as const;
