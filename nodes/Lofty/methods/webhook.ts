import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Webhook resource. */
export const webhookMethods: MethodSet = { listSearch: {}, loadOptions: {} };
