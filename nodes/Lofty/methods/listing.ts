import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Listing resource (agents come from getMembers). */
export const listingMethods: MethodSet = { listSearch: {}, loadOptions: {} };
