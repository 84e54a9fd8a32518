/** Appointment demo data, in the task store (one identifier namespace with the tasks). */
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';
import { DAY, HOUR, S0, TASK_SEED, seededEntry } from '../task/seed';
import { taskState } from '../task/state';

/** Seeds the appointments (appointment resource). */
export function seedAppointments(store: Store): void {
	const state = taskState(store);
	const demo = BigInt(SEED_IDS.demoUserId);
	const other = BigInt(SEED_IDS.otherAgentUserId);
	const lead = store.getLead(TASK_SEED.leadId)!;
	state.add({
		...seededEntry(lead, demo, demo, S0),
		id: BigInt(TASK_SEED.appointmentId),
		kind: 'appointment',
		type: 'Appointment',
		content: 'Showing at 12 Oak Ave',
		address: '12 Oak Ave, Austin, TX 78701',
		timeZoneCode: 'America/Chicago',
		startAt: S0 + 3 * DAY,
		endAt: S0 + 3 * DAY + HOUR,
	});
	state.add({
		...seededEntry(lead, demo, demo, S0),
		id: BigInt(TASK_SEED.finishedAppointmentId),
		kind: 'appointment',
		type: 'Appointment',
		content: 'Buyer consultation',
		address: 'Main Office',
		timeZoneCode: 'America/Los_Angeles',
		startAt: S0 - 6 * DAY,
		endAt: S0 - 6 * DAY + 2 * HOUR,
		finishFlag: true,
		finishTime: S0 - 6 * DAY + 2 * HOUR,
	});
	const otherLead = store.getLead(SEED_IDS.notSharedLeadId)!;
	state.add({
		...seededEntry(otherLead, other, other, S0),
		id: BigInt(TASK_SEED.otherAgentAppointmentId),
		kind: 'appointment',
		type: 'Appointment',
		content: 'Listing appointment',
		address: '400 Congress Ave, Austin, TX',
		startAt: S0 + DAY,
		endAt: S0 + DAY + HOUR,
	});
}
