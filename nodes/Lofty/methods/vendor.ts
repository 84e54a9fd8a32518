import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Vendor resource. */
export const vendorMethods: MethodSet = { listSearch: {}, loadOptions: {} };
