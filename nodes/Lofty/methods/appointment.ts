import type { MethodSet } from './types';

/** List searches (resource locators) and dropdowns of the Appointment resource. */
export const appointmentMethods: MethodSet = { listSearch: {}, loadOptions: {} };
