/**
 * Calendar demo data: tasks and appointments in the shared task store (../task/state.ts), with fixed ids
 * 9007199254745001.. (above 2^53, apart from the task module's seeds and from new ids).
 *
 * These entries are in my-tasks too, which lists the latest start first. The busy calendar therefore lies in
 * 2025, before the task module's entries (2026), and the only future demo entries are two tasks: pickers that
 * read the first pages of my-tasks still meet the task module's entries there.
 */
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';
import { TASK_WAYS } from './entries';
import { type NewTaskFields, newTaskRecord, taskState } from '../task/state';

/** Notable seeded entries (composite IDs; the numbers exceed 2^53). */
export const CALENDAR_SEED = {
	/** demo user's open task on the lead above 2^53, far in the future */
	task: '9007199254745001-task',
	/** demo user's open appointment (in the past, on another demo lead) */
	appointment: '9007199254745002-appointment',
	/** demo user's finished task */
	finishedTask: '9007199254745003-task',
	/** demo user's Smart Plan task (cannot be updated or deleted) */
	smartPlanTask: '9007199254745004-task',
	/** the other agent's task on a lead not shared with the demo user */
	otherAgentTask: '9007199254745005-task',
	/** the other agent's appointment on the lead shared with the demo user */
	sharedLeadAppointment: '9007199254745006-appointment',
	/**
	 * how many entries the demo user's calendar holds between `from` and `to` (finished ones included): the 1,204
	 * seeded here plus the tasks and appointments the task, appointment and notification modules seed
	 */
	demoCount: 1442,
	/** all seeded entries lie between these instants */
	from: Date.UTC(2025, 0, 1),
	to: Date.UTC(2031, 0, 1),
} as const;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const ZONES = ['America/Los_Angeles', 'America/Chicago', 'America/New_York', 'UTC'];
const SMART_PLAN = { queryId: 88002101n, queryInfo: 'New Lead Nurture' };

type Seed = { leadId: bigint; owner: bigint; content: string; start: number; end: number; zone: string };

export function seedCalendar(store: Store): void {
	const state = taskState(store);
	let next = 9007199254745001n;
	const add = (s: Seed, fields: Omit<NewTaskFields, 'content' | 'endAt' | 'assignedUserId'>) => {
		const lead = store.getLead(s.leadId)!;
		const record = newTaskRecord(lead, s.owner, CALENDAR_SEED.from, { ...fields, content: s.content, startAt: s.start, endAt: s.end, timeZoneCode: s.zone, assignedUserId: s.owner });
		state.add({ ...record, id: next++ });
	};
	const task = (s: Seed, way: (typeof TASK_WAYS)[number] = 'Call', extra: Partial<NewTaskFields> = {}) => add(s, { kind: 'task', type: way, ...extra });
	const appointment = (s: Seed, address: string, extra: Partial<NewTaskFields> = {}) => add(s, { kind: 'appointment', type: 'Appointment', address, ...extra });
	const demo = BigInt(SEED_IDS.demoUserId);
	const other = BigInt(SEED_IDS.otherAgentUserId);
	const big = BigInt(SEED_IDS.bigLeadId);
	const far = Date.UTC(2030, 5, 3, 16);
	const LA = 'America/Los_Angeles';

	// the notable entries first, so their numbers are fixed (see CALENDAR_SEED)
	task({ leadId: big, owner: demo, content: 'Call about the pre-approval letter', start: far, end: far + 1_800_000, zone: LA });
	const showing = Date.UTC(2025, 11, 15, 17);
	const showingLead = BigInt(SEED_IDS.activityLeadId);
	appointment({ leadId: showingLead, owner: demo, content: 'Showing at 48 Birch Ln', start: showing, end: showing + HOUR_MS, zone: LA }, '48 Birch Ln, Austin, TX');
	const march = Date.UTC(2025, 2, 3, 17);
	task({ leadId: big, owner: demo, content: 'Send the market report', start: march, end: march + 1_800_000, zone: 'America/Chicago' }, 'Email', { finishFlag: true, finishTime: march });
	task({ leadId: big, owner: demo, content: 'New Lead Nurture: day 3 text', start: far + 2 * DAY_MS, end: far + 2 * DAY_MS, zone: LA }, 'Text', { smartPlan: SMART_PLAN });
	task({ leadId: BigInt(SEED_IDS.notSharedLeadId), owner: other, content: "Other agent's call", start: far, end: far + 900_000, zone: 'America/Chicago' });
	const consult = far + 3 * DAY_MS;
	appointment({ leadId: BigInt(SEED_IDS.sharedLeadId), owner: other, content: 'Listing consultation', start: consult, end: consult + HOUR_MS, zone: 'America/Chicago' }, '500 Congress Ave, Austin, TX');

	// a busy calendar for the demo user: 1200 more entries over 2025 on the demo user's leads
	const leads = [...store.leads.values()]
		.filter((l) => l.ownerUserId === demo && l.deletedAt === null)
		.sort((a, b) => (a.leadId < b.leadId ? -1 : 1))
		.slice(0, 40);
	const span = Date.UTC(2025, 11, 10) - CALENDAR_SEED.from;
	for (let k = 0; k < 1200; k++) {
		const lead = leads[k % leads.length];
		const start = CALENDAR_SEED.from + Math.floor((k * span) / 1200) + (k % 9) * HOUR_MS;
		const finished = { finishFlag: k % 7 === 0, finishTime: k % 7 === 0 ? start : null };
		const at = { leadId: lead.leadId, owner: demo, start, zone: ZONES[k % ZONES.length] };
		if (k % 3 === 1) {
			appointment({ ...at, content: `Showing #${k} with ${lead.firstName}`, end: start + HOUR_MS }, `${100 + k} Elm St, Austin, TX`, finished);
		} else {
			const smartPlan = k % 11 === 0 ? SMART_PLAN : null;
			task({ ...at, content: `Follow up #${k} with ${lead.firstName}`, end: start + 1_800_000 }, TASK_WAYS[k % 4], { ...finished, smartPlan });
		}
	}
	// the other agent's calendar (never listed for the demo user)
	for (let k = 0; k < 10; k++) {
		const start = far + k * DAY_MS;
		task({ leadId: BigInt(SEED_IDS.notSharedLeadId), owner: other, content: `Other agent follow-up #${k}`, start, end: start + 900_000, zone: 'America/Chicago' });
	}
}
