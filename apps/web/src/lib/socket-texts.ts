/**
 * The live socket's texts (docs/product.md "Live recording"), apart from the socket itself (socket.ts), which the
 * recordings screen loads only once a session is live: it brings zod, to check each message.
 */
export const SOCKET_ERROR_TEXT = 'Connection error';
export const SOCKET_FAILED_TEXT = 'Connection failed';
