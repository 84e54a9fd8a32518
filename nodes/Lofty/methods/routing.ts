import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Routing resource. */
export const routingMethods: MethodSet = { listSearch: {}, loadOptions: {} };
