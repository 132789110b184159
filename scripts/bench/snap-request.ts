/** The one request every part of the bench sends: `POST /api/v1/snap` with this body. */
export const SNAP_PATH = '/api/v1/snap';

export const SNAP_BODY = JSON.stringify({ name: 'Ada', notes: 'Checks every figure twice and audits the spreadsheet.' });
