/** The response envelope and the bare 401 body (openapi/openapi.yaml, `Envelope` and `Unauthorized`). */

export interface SuccessEnvelope<Data> {
  success: true;
  message: string;
  data: Data;
  statusCode: number;
  timestamp: string;
  error: null;
}

export interface FailureEnvelope {
  success: false;
  message: string;
  statusCode: number;
  timestamp: string;
  error: string;
}

export interface BareErrorBody {
  message: string;
  error: string;
  statusCode: number;
}

export function successEnvelope<Data>(statusCode: number, message: string, data: Data): SuccessEnvelope<Data> {
  return { success: true, message, data, statusCode, timestamp: new Date().toISOString(), error: null };
}

export function failureEnvelope(statusCode: number, message: string): FailureEnvelope {
  return { success: false, message, statusCode, timestamp: new Date().toISOString(), error: message };
}

export function bareErrorBody(statusCode: number, message: string): BareErrorBody {
  return { message, error: message, statusCode };
}
