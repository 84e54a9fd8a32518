import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Calendar resource. */
export const calendarMethods: MethodSet = { listSearch: {}, loadOptions: {} };
