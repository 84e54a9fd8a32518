import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Notification resource. */
export const notificationMethods: MethodSet = { listSearch: {}, loadOptions: {} };
