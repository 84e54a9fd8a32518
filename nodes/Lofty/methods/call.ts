import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Call resource. */
export const callMethods: MethodSet = { listSearch: {}, loadOptions: {} };
