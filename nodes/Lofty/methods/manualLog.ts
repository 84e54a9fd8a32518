import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Manual Log resource. */
export const manualLogMethods: MethodSet = { listSearch: {}, loadOptions: {} };
