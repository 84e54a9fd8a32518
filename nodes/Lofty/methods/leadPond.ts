import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Lead Pond resource. */
export const leadPondMethods: MethodSet = { listSearch: {}, loadOptions: {} };
