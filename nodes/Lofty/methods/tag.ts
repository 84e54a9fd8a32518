import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Tag resource. */
export const tagMethods: MethodSet = { listSearch: {}, loadOptions: {} };
