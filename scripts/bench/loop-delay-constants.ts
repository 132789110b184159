/** Shared by the loop-delay probe (inside the server) and the report (outside it). */
export const PROBE_RESOLUTION_MS = 10;
