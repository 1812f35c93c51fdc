export * from './accounts.js';
export * from './api.js';
export * from './common.js';
export * from './constants.js';
export * from './entities.js';
export * from './interop.js';
export * from './jobs.js';
export * from './ws.js';
