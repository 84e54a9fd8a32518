import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Custom Field resource. */
export const customFieldMethods: MethodSet = { listSearch: {}, loadOptions: {} };
