import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Task resource. */
export const taskMethods: MethodSet = { listSearch: {}, loadOptions: {} };
