export * from './auth.js';
export * from './constants.js';
export * from './dates.js';
export * from './errors.js';
export * from './greeting.js';
export * from './status.js';
export * from './teaching.js';
