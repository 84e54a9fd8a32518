import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Sales Agent resource. */
export const salesAgentMethods: MethodSet = { listSearch: {}, loadOptions: {} };
