/** Task demo data: notable tasks (TASK_SEED) and many open tasks of the demo user for my-tasks paging. */
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';
import type { Lead } from '../../core/types';
import { TASK_TYPES, newTaskRecord, taskState } from './state';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** 2026-01-05T16:00:00Z */
export const S0 = Date.UTC(2026, 0, 5, 16);

/** Identifiers of seeded tasks and appointments (exact digits; several exceed 2^53). */
export const TASK_SEED = {
	/** demo-owned lead above 2^53 holding a mix of entries */
	leadId: SEED_IDS.bigLeadId,
	/** open Call task (id above 2^53) */
	openTaskId: '9007199254760011',
	/** finished Email task */
	finishedTaskId: '563172647619608',
	/** open Smart Plan task */
	smartPlanTaskId: '563172647619709',
	/** open appointment (id above 2^53) */
	appointmentId: '9007199254760021',
	/** finished appointment */
	finishedAppointmentId: '563172647619810',
	/** task and appointment on a lead of the other agent that is not shared with the demo user */
	otherAgentTaskId: '563172647620012',
	otherAgentAppointmentId: '563172647620113',
	/** task on the lead the other agent shares with the demo user */
	sharedLeadTaskId: '563172647620214',
	/** a lead with neither tasks nor appointments */
	emptyLeadId: SEED_IDS.bigLeadId2,
	/** number of further open tasks assigned to the demo user (my-tasks), beyond the entries above */
	bulkTasks: 231,
} as const;

/** Seeded entries were created 10 days and last changed 9 days before `time`; each caller sets kind, type, content and times. */
export function seededEntry(lead: Lead, assignee: bigint, creator: bigint, time: number) {
	return newTaskRecord(lead, creator, time - 10 * DAY, { kind: 'task', type: 'Other', content: '', endAt: time, assignedUserId: assignee, lastUpdate: time - 9 * DAY });
}

/** Seeds the tasks (task resource). */
export function seedTasks(store: Store): void {
	const state = taskState(store);
	const demo = BigInt(SEED_IDS.demoUserId);
	const other = BigInt(SEED_IDS.otherAgentUserId);
	const lead = store.getLead(TASK_SEED.leadId)!;
	state.add({ ...seededEntry(lead, demo, demo, S0), id: BigInt(TASK_SEED.openTaskId), kind: 'task', type: 'Call', content: 'Call about the pre-approval', endAt: S0 + 2 * DAY });
	state.add({
		...seededEntry(lead, demo, demo, S0),
		id: BigInt(TASK_SEED.finishedTaskId),
		kind: 'task',
		type: 'Email',
		content: 'Send the Austin listings',
		subject: 'Austin listings',
		body: 'Here are the homes we talked about.',
		endAt: S0 - 3 * DAY,
		finishFlag: true,
		finishTime: S0 - 4 * DAY,
	});
	state.add({
		...seededEntry(lead, demo, 0n, S0),
		id: BigInt(TASK_SEED.smartPlanTaskId),
		kind: 'task',
		type: 'Text',
		content: 'Smart Plan: check in by text',
		endAt: S0 + 5 * DAY,
		smartPlan: { queryId: 88002001n, queryInfo: 'New Lead Nurture / step 3' },
	});
	const otherLead = store.getLead(SEED_IDS.notSharedLeadId)!;
	state.add({ ...seededEntry(otherLead, other, other, S0), id: BigInt(TASK_SEED.otherAgentTaskId), kind: 'task', type: 'Call', content: 'Oscar calls his lead', endAt: S0 + DAY });
	const shared = store.getLead(SEED_IDS.sharedLeadId)!;
	state.add({ ...seededEntry(shared, other, other, S0), id: BigInt(TASK_SEED.sharedLeadTaskId), kind: 'task', type: 'Other', content: 'Prepare the CMA', endAt: S0 + 3 * DAY });

	// many open tasks of the demo user over demo-owned leads, for my-tasks paging
	const leads = [...store.leads.values()].filter((l) => l.ownerUserId === demo && l.deletedAt === null && l.leadId !== lead.leadId).slice(6, 66);
	for (let k = 0; k < TASK_SEED.bulkTasks; k++) {
		const l = leads[k % leads.length];
		const due = S0 + (k % 97) * DAY + (k % 5) * HOUR;
		state.add({
			...seededEntry(l, demo, demo, due),
			id: (k % 3 === 0 ? 9007199254770001n : 563172647700001n) + BigInt(k) * 7n,
			kind: 'task',
			type: TASK_TYPES[k % 4],
			content: `Follow up #${k + 1} with ${l.firstName}`,
			endAt: due,
			finishFlag: k % 10 === 9,
			finishTime: k % 10 === 9 ? due - HOUR : null,
		});
	}
}
