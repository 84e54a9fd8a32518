import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Note resource. */
export const noteMethods: MethodSet = { listSearch: {}, loadOptions: {} };
