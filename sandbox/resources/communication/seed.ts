/** Communication demo data: notable calls, texts, emails and manual logs (COMM_SEED) and bulk histories. */
import { rng } from '../../core/seed';
import type { Store } from '../../core/store';
import type { Lead, User } from '../../core/types';
import { CALLING_OUTCOMES, type CommKind, type CommType, type Communication, type Direction, commState } from './state';

/** Ids of notable seeded communications (exact digits; all above 2^53). */
export const COMM_SEED = {
	/** demo-owned lead with a long history: 1,100 dialer calls, 1,050 logged calls, 300 texts, 250 emails */
	historyLeadId: '651095960197421',
	historyDialerCalls: 1100,
	historyLoggedCalls: 1050,
	historyTexts: 300,
	historyLoggedTexts: 30,
	historyEmails: 250,
	historyLoggedEmails: 25,
	/** big lead (SEED_IDS.bigLeadId): a recorded dialer call */
	bigLeadCallId: '9007199254790001',
	bigLeadCallDialerId: '400000012345',
	/** big lead: a dialer call without recording */
	bigLeadUnrecordedCallId: '9007199254790002',
	/** big lead: a logged call (manual log, logCall) */
	bigLeadLoggedCallId: '9007199254790003',
	bigLeadTextId: '9007199254790004',
	/** big lead: a logged text (manual log, logText) */
	bigLeadLoggedTextId: '9007199254790005',
	bigLeadEmailId: '9007199254790006',
	/** big lead: a logged email (manual log, logEmail) with subject and addresses */
	bigLeadLoggedEmailId: '9007199254790007',
	sharedLeadCallId: '9007199254790011',
	sharedLeadEmailId: '9007199254790012',
	notSharedCallId: '9007199254790021',
	notSharedTextId: '9007199254790022',
	notSharedEmailId: '9007199254790023',
	notSharedLoggedCallId: '9007199254790024',
	/** a dialer call on the trashed lead */
	trashedLeadCallId: '9007199254790031',
	/** agent-search window: 90 days from 2025-03-01; the demo user has 1,000 calls, 500 texts, 500 emails in it */
	windowStart: Date.UTC(2025, 2, 1),
	windowEnd: Date.UTC(2025, 2, 1) + 90 * 86_400_000 - 1,
	windowCalls: 1000,
	windowTexts: 500,
	windowEmails: 500,
	/** the other agent's communications in that window (seen by the demo user only with teamView) */
	windowOtherAgent: 50,
	/** 2025-04-15: a busy day with 1,500 communications of the demo user (500 of each kind) */
	busyDay: Date.UTC(2025, 3, 15),
	busyDayCount: 1500,
} as const;

const DAY = 86_400_000;

type Draft = Omit<Communication, 'id' | 'visibleAt' | 'deleted' | 'fromPond'> & Partial<Communication>;

/** A communication of `kind` on `lead` by `agent` at `time`; `k` varies the details. */
function draft(r: () => number, kind: CommKind, type: CommType, lead: Lead, agent: User, time: number, k: number): Draft {
	const direction: Direction = k % 3 === 1 ? 'Inbound' : 'Outbound';
	const base = { leadId: lead.leadId, agentId: agent.userId, kind, communicationType: type, direction, time };
	const logged = type === 'LOGGED';
	if (kind === 'CALL') {
		const outcome = CALLING_OUTCOMES[k % CALLING_OUTCOMES.length];
		if (logged) {
			return { ...base, logType: 'logCall', leadPhoneNumber: lead.phones[0] ?? '+14155550000', callingOutcome: outcome, content: `Logged call #${k}`, isPin: k % 17 === 0 };
		}
		const duration = 20 + Math.floor(r() * 600);
		return {
			...base,
			dialerCallRecordId: undefined,
			leadPhoneNumber: lead.phones[0] ?? '+14155550000',
			userPhoneNumber: agent.virtualNumber || '+15125550199',
			status: outcome === 'Talked' ? 'Completed' : outcome === 'NoAnswer' ? 'NoAnswer' : outcome === 'VoiceMessage' ? 'VoiceMail' : 'Failed',
			duration,
			callingOutcome: outcome,
			rateScore: k % 6,
			recordingSwitch: k % 4 !== 3,
			isMachineAnswered: outcome === 'VoiceMessage',
			price: Math.round(duration * 0.0004 * 100) / 100,
			content: k % 5 === 0 ? `Call note #${k}` : '',
		};
	}
	if (kind === 'TEXT') {
		if (logged) return { ...base, logType: 'logText', content: `Logged text #${k}`, isPin: false };
		return { ...base, textOutcome: k % 9 === 4 ? 'Failed' : 'Delivered', content: `Hi ${lead.firstName}, text #${k}` };
	}
	const subject = `Homes you may like #${k}`;
	if (logged) {
		return { ...base, logType: 'logEmail', content: `Logged email #${k}`, emailSubject: subject, toEmail: lead.emails[0] ?? '', fromEmail: agent.email, isPin: false };
	}
	return { ...base, eventType: (['Sent', 'Opened', 'Bounced'] as const)[k % 3], emailSubject: subject, toEmail: lead.emails[0] ?? '', fromEmail: agent.email, content: `Email body #${k}` };
}

/** Deterministic demo communications (runs after the lead seed). */
export function seedCommunications(store: Store): void {
	const state = commState(store);
	const r = rng(20250301);
	const demo = [...store.users.values()].find((u) => u.roleName === 'Owner')!;
	const lead = (id: string | bigint): Lead => store.getLead(id)!;
	const bulk: Draft[] = [];
	const dialer = (d: Draft): Draft => (d.kind === 'CALL' && d.communicationType !== 'LOGGED' ? { ...d, dialerCallRecordId: state.nextDialerId++ } : d);

	// history lead: interleaved through 2024
	const history = lead(COMM_SEED.historyLeadId);
	const T2024 = Date.UTC(2024, 0, 1);
	const plan: Array<[CommKind, number, number]> = [
		['CALL', COMM_SEED.historyDialerCalls, 0],
		['CALL', COMM_SEED.historyLoggedCalls, COMM_SEED.historyLoggedCalls],
		['TEXT', COMM_SEED.historyTexts, COMM_SEED.historyLoggedTexts],
		['EMAIL', COMM_SEED.historyEmails, COMM_SEED.historyLoggedEmails],
	];
	for (const [kind, count, logged] of plan) {
		for (let k = 0; k < count; k++) {
			const type: CommType = k < logged ? 'LOGGED' : k % 2 ? 'AUTO' : 'MANUAL';
			const time = T2024 + Math.floor(r() * 360 * DAY);
			bulk.push(draft(r, kind, type, history, demo, time, k));
		}
	}

	// agent-search window: demo user's communications on demo leads 100..149
	const demoLeads = [...store.leads.values()].filter((l) => l.ownerUserId === demo.userId && l.deletedAt === null && l.leadId !== history.leadId);
	const windowLeads = demoLeads.slice(100, 150);
	const kinds: CommKind[] = ['CALL', 'TEXT', 'EMAIL'];
	for (let k = 0; k < COMM_SEED.busyDayCount; k++) {
		const type: CommType = (['AUTO', 'MANUAL', 'LOGGED'] as const)[Math.floor(k / 3) % 3];
		bulk.push(draft(r, kinds[k % 3], type, windowLeads[k % windowLeads.length], demo, COMM_SEED.busyDay + 1000 + k * 50_000, k));
	}
	const spread = COMM_SEED.windowCalls + COMM_SEED.windowTexts + COMM_SEED.windowEmails - COMM_SEED.busyDayCount; // 500 calls
	for (let k = 0; k < spread; k++) {
		const type: CommType = (['AUTO', 'MANUAL', 'LOGGED'] as const)[k % 3];
		bulk.push(draft(r, 'CALL', type, windowLeads[(k * 7) % windowLeads.length], demo, COMM_SEED.windowStart + 3_600_000 + k * 6_900_000, k));
	}
	// the other agent's communications in the window, on its own (not shared) leads
	const other = [...store.users.values()].find((u) => u.email === 'other.agent@example.com')!;
	const otherLeads = [...store.leads.values()].filter((l) => l.ownerUserId === other.userId && l.sharedUserIds.length === 0);
	for (let k = 0; k < COMM_SEED.windowOtherAgent; k++) {
		bulk.push(draft(r, kinds[k % 3], k % 2 ? 'AUTO' : 'MANUAL', otherLeads[k % otherLeads.length], other, COMM_SEED.windowStart + 5 * DAY + k * 7_200_000, k));
	}

	bulk.sort((a, b) => a.time - b.time);
	for (const d of bulk) state.add(dialer(d));

	// notable records with fixed ids
	const big = lead('9007199254740993');
	const shared = lead('702656410082999');
	const notShared = lead('702656410082001');
	const trashed = lead('651095960138667');
	const t = Date.UTC(2025, 5, 1, 15, 0, 0);
	const fixed: Array<[string, Draft]> = [
		[COMM_SEED.bigLeadCallId, { ...draft(r, 'CALL', 'MANUAL', big, demo, t, 0), dialerCallRecordId: BigInt(COMM_SEED.bigLeadCallDialerId), recordingSwitch: true, duration: 225, content: 'Discussed pre-approval timeline.' }],
		[COMM_SEED.bigLeadUnrecordedCallId, { ...draft(r, 'CALL', 'AUTO', big, demo, t + 3_600_000, 1), dialerCallRecordId: 400000012346n, recordingSwitch: false, callingOutcome: 'NoAnswer', status: 'NoAnswer' }],
		[COMM_SEED.bigLeadLoggedCallId, { ...draft(r, 'CALL', 'LOGGED', big, demo, t + 2 * 3_600_000, 2), leadPhoneNumber: '5865865860', callingOutcome: 'VoiceMessage', content: 'Left a voicemail about the open house.' }],
		[COMM_SEED.bigLeadTextId, draft(r, 'TEXT', 'MANUAL', big, demo, t + 3 * 3_600_000, 3)],
		[COMM_SEED.bigLeadLoggedTextId, { ...draft(r, 'TEXT', 'LOGGED', big, demo, t + 4 * 3_600_000, 4), direction: 'Inbound', content: 'Lead texted back: Saturday works.' }],
		[COMM_SEED.bigLeadEmailId, { ...draft(r, 'EMAIL', 'AUTO', big, demo, t + 5 * 3_600_000, 5), eventType: 'Opened', emailSubject: 'New listings in Austin' }],
		[COMM_SEED.bigLeadLoggedEmailId, { ...draft(r, 'EMAIL', 'LOGGED', big, demo, t + 6 * 3_600_000, 6), emailSubject: 'Follow-up on Austin listings', toEmail: 'sarah.johnson@example.com', fromEmail: 'agent@lofty.com' }],
		[COMM_SEED.sharedLeadCallId, { ...draft(r, 'CALL', 'MANUAL', shared, other, t, 7), dialerCallRecordId: 400000012347n }],
		[COMM_SEED.sharedLeadEmailId, draft(r, 'EMAIL', 'MANUAL', shared, other, t + 3_600_000, 8)],
		[COMM_SEED.notSharedCallId, { ...draft(r, 'CALL', 'MANUAL', notShared, other, t, 9), dialerCallRecordId: 400000012348n, recordingSwitch: true }],
		[COMM_SEED.notSharedTextId, draft(r, 'TEXT', 'MANUAL', notShared, other, t + 3_600_000, 10)],
		[COMM_SEED.notSharedEmailId, draft(r, 'EMAIL', 'AUTO', notShared, other, t + 2 * 3_600_000, 11)],
		[COMM_SEED.notSharedLoggedCallId, draft(r, 'CALL', 'LOGGED', notShared, other, t + 3 * 3_600_000, 12)],
		[COMM_SEED.trashedLeadCallId, { ...draft(r, 'CALL', 'MANUAL', trashed, demo, t, 13), dialerCallRecordId: 400000012349n, recordingSwitch: true }],
	];
	for (const [id, d] of fixed) state.add({ ...d, id: BigInt(id) });
}
