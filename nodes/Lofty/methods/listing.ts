import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Listing resource. */
export const listingMethods: MethodSet = { listSearch: {}, loadOptions: {} };
