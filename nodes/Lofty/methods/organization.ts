import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Organization resource. */
export const organizationMethods: MethodSet = { listSearch: {}, loadOptions: {} };
