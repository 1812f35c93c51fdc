/** The API's version: in the API document and in /api/health. */
export const API_VERSION = '0.1.0';
