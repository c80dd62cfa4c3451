export { createCatalogSource } from './createCatalogSource.js';
