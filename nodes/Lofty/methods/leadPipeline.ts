import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Lead Pipeline resource. */
export const leadPipelineMethods: MethodSet = { listSearch: {}, loadOptions: {} };
