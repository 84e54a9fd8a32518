import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Opportunity resource. */
export const opportunityMethods: MethodSet = { listSearch: {}, loadOptions: {} };
