import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { searchMyEntries } from './task';
import type { MethodSet } from './types';

/** Appointments for the appointment picker: the caller's appointments, searched by text or lead name. */
export async function searchAppointments(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	return await searchMyEntries(this, true, filter, paginationToken);
}

/** List searches (resource locators) and dropdowns of the Appointment resource. */
export const appointmentMethods: MethodSet = { listSearch: { searchAppointments }, loadOptions: {} };
