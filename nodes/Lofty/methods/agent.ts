import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Agent resource. */
export const agentMethods: MethodSet = { listSearch: {}, loadOptions: {} };
