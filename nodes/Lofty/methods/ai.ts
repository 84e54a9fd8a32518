import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the AI resource. */
export const aiMethods: MethodSet = { listSearch: {}, loadOptions: {} };
