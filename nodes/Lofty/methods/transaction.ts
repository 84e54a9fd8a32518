import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Transaction resource. */
export const transactionMethods: MethodSet = { listSearch: {}, loadOptions: {} };
