/**
 * What the HTTP layer offers the package's own upper layers (`http/node`), not a package export: the
 * error answer in the tools' error shape and the request ID rule, so a guard in front of the handler
 * answers exactly as the handler does.
 *
 * @module
 */
export { errorResponse, isWholeAnswer, requestIdFrom } from './respond.js';
export { setClientAddress } from './clientAddress.js';
