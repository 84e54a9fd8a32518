import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Communication resource. */
export const communicationMethods: MethodSet = { listSearch: {}, loadOptions: {} };
