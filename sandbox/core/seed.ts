/**
 * Deterministic demo data: one team, 30 members, ~256 leads, system logs,
 * saved searches and activities. Same input, same data, every time.
 */
import type { Store } from './store';
import { PARTY, TL } from './timeline';
import type { AlertCadence, Lead, SavedSearchSource, User } from './types';

/** Identifiers of notable seeded records (exact digits; several exceed 2^53). */
export const SEED_IDS = {
	teamId: '88001',
	demoUserId: '9007199254741001',
	otherAgentUserId: '302656410082719',
	/** demo-owned lead whose id is above 2^53 (not representable as a JS number) */
	bigLeadId: '9007199254740993',
	/** second lead above 2^53 (17 digits) */
	bigLeadId2: '12345678901234567',
	/** 2,500 system-log entries (plus non-system timeline entries that the endpoint filters out) */
	logsLeadId: '1125957935106829',
	/** 320 v1 activities (4 pages of 100) and 45 v2 activities */
	activityLeadId: '651095960136641',
	/** saved searches of every source and several cadences */
	savedSearchLeadId: '651095960137654',
	/** owned by and assigned to the other agent, not shared with the demo user */
	notSharedLeadId: '702656410082001',
	/** owned by the other agent, shared with the demo user */
	sharedLeadId: '702656410082999',
	/** demo-owned lead in the trash (GET needs withTrash=true) */
	trashedLeadId: '651095960138667',
	mainOfficeId: '12345',
	northOfficeId: '12346',
	downtownOfficeId: '12347',
	northTeamAOfficeId: '12348',
} as const;

export const SEED_STAGES = ['New', 'Attempted Contact', 'Active', 'Nurture', 'Hot', 'Under Contract', 'Closed', 'Archived'];
export const SEED_SOURCES = ['Zillow', 'Realtor.com', 'Open House', 'Website', 'Referral', 'Facebook', 'Google Ads', 'Open API'];
export const SEED_TAGS = ['Hot Lead', 'Zillow', 'Referral', 'Pre-Approved', 'First-Time Buyer', 'Investor', 'VIP', 'Cold', 'Follow Up', '*'];
export const SEED_SEGMENTS = ['First-Time Buyers', 'Downtown Area', 'Luxury', 'Relocation', 'Open House Feb'];

/** 2024-01-01T00:00:00Z: seeded history lies in 2024-2025. */
const T0 = Date.UTC(2024, 0, 1);
const SPAN = Date.UTC(2026, 0, 1) - T0;
const DAY = 86_400_000;

/** Deterministic pseudo-random numbers in [0, 1) from a seed (same seed, same sequence). */
export function rng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const FIRST = ['Alice', 'Bob', 'Carmen', 'Deepak', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jamal', 'Kira', 'Luis', 'Mei', 'Noah', 'Olga', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tara', 'Uma', 'Victor', 'Wen', 'Ximena', 'Yusuf', 'Zoe'];
const LAST = ['Johnson', 'Li', 'Garcia', 'Patel', 'Novak', 'Haddad', 'Kim', 'Tanaka', 'Silva', 'Brown', 'Okafor', 'Martin', 'Chen', 'Smith', 'Ivanova', 'Rao', "O'Neil", 'Diaz', 'Berg', 'Nguyen'];
const CITIES: Array<[string, string, string]> = [
	['Austin', 'TX', '78701'],
	['Round Rock', 'TX', '78664'],
	['Palm Desert', 'CA', '92211'],
	['Seattle', 'WA', '98101'],
	['Denver', 'CO', '80202'],
];

function seedUsers(store: Store): { owner: User; other: User; members: User[] } {
	const teamId = BigInt(SEED_IDS.teamId);
	const offices: Array<[string, string, string]> = [
		[SEED_IDS.mainOfficeId, '0', 'Main Office'],
		[SEED_IDS.northOfficeId, SEED_IDS.mainOfficeId, 'North Austin Office'],
		[SEED_IDS.downtownOfficeId, SEED_IDS.mainOfficeId, 'Downtown Office'],
		[SEED_IDS.northTeamAOfficeId, SEED_IDS.northOfficeId, 'North Austin - Team A'],
	];
	for (const [id, parent, name] of offices) {
		store.addOffice({ id: BigInt(id), teamId, parentId: BigInt(parent), name, city: 'Austin', state: 'TX' });
	}
	const officeIds = offices.map((o) => BigInt(o[0]));
	const base = (memberId: number, userId: bigint, firstName: string, lastName: string, email: string): User => ({
		memberId: BigInt(memberId),
		userId,
		teamId,
		invitorUserId: BigInt(SEED_IDS.demoUserId),
		role: 0,
		roleName: 'Agent',
		email,
		firstName,
		lastName,
		phoneNumber: `+1512555${String(1000 + memberId).slice(-4)}`,
		status: 1,
		virtualNumber: '',
		isAdmin: false,
		timeZoneId: 'America/Chicago',
		groupId: officeIds[0],
		accountStatus: 'ACTIVE',
		licenseId: `TX-${600000 + memberId}`,
	});
	const owner = store.addUser({
		...base(11, BigInt(SEED_IDS.demoUserId), 'Dana', 'Demo', 'demo.owner@example.com'),
		role: 1,
		roleName: 'Owner',
		isAdmin: true,
		invitorUserId: 0n,
		virtualNumber: '+15125550100',
		timeZoneId: 'America/Los_Angeles',
	});
	const other = store.addUser({
		...base(12, BigInt(SEED_IDS.otherAgentUserId), 'Oscar', 'Other', 'other.agent@example.com'),
		groupId: BigInt(SEED_IDS.downtownOfficeId),
	});
	const members: User[] = [owner, other];
	for (let i = 0; i < 28; i++) {
		const first = FIRST[(i * 7 + 3) % FIRST.length];
		const last = LAST[(i * 3 + 1) % LAST.length];
		const u = base(13 + i, 302656410082801n + BigInt(i * 17), first, last, `${first}.${last.replace("'", '')}${i}@example.com`.toLowerCase());
		u.groupId = officeIds[i % officeIds.length];
		if (i === 1) Object.assign(u, { role: 2, roleName: 'Admin', isAdmin: true });
		if (i === 3 || i === 9) Object.assign(u, { role: 3, roleName: 'Assistant' });
		if (i === 5 || i === 15) Object.assign(u, { role: 4, roleName: 'Lender' });
		if (i === 27) u.status = 0; // invitation not accepted
		if (i === 20) u.accountStatus = 'INACTIVE';
		members.push(store.addUser(u));
	}
	return { owner, other, members };
}

function pick<T>(r: () => number, list: readonly T[]): T {
	return list[Math.floor(r() * list.length)];
}

function seedLead(store: Store, r: () => number, i: number, leadId: bigint, owner: User, assignee: User): Lead {
	const first = FIRST[i % FIRST.length];
	const last = LAST[(i * 7) % LAST.length];
	const created = T0 + Math.floor(r() * SPAN);
	const [city, state, zip] = pick(r, CITIES);
	const tags = SEED_TAGS.filter(() => r() < 0.22).map((t) => store.makeTag(t, owner.userId, created));
	const emails: string[] = [];
	const nEmails = r() < 0.1 ? 0 : r() < 0.8 ? 1 : 2;
	for (let k = 0; k < nEmails; k++) emails.push(`${first}.${last.replace("'", '')}${i}${k ? '.work' : ''}@example.com`.toLowerCase());
	const phones: string[] = [];
	if (r() < 0.85) phones.push(`+1415555${String(1000 + i).slice(-4)}`);
	const contacted = r() < 0.6;
	const lead = store.addLead({
		leadId,
		leadUserId: 880000000000000n - BigInt(i + 1) * 13n,
		ownerUserId: owner.userId,
		firstName: first,
		lastName: last,
		emails,
		phones,
		phoneStatuses: phones.map(() => 2),
		source: pick(r, SEED_SOURCES),
		leadSource: 1 + Math.floor(r() * 8),
		stage: SEED_STAGES[Math.floor(r() * SEED_STAGES.length)],
		score: Math.floor(r() * 100),
		tags,
		segments: SEED_SEGMENTS.filter(() => r() < 0.2),
		city,
		state,
		zipCode: zip,
		streetAddress: `${100 + i} Main St`,
		createTime: created,
		contacted,
		lastTouch: contacted ? created + Math.floor(r() * 60) * DAY : null,
		lastVisit: r() < 0.5 ? created + Math.floor(r() * 90) * DAY : null,
		leadTypes: r() < 0.3 ? [1] : r() < 0.8 ? [2] : [2, 5],
		language: pick(r, ['en', 'en', 'en', 'es', 'zh-CN', 'fr']),
		birthday: r() < 0.3 ? 'Jun 5, 1988' : null,
		qualification: { buyingTimeFrame: pick(r, ['1-3', '3-6', '6-12', '12+', 'Just Looking']), preQual: r() < 0.5 ? 'Yes' : 'No' },
		leadInquiry: { priceMin: 200000 + i * 1000, priceMax: 600000 + i * 1000, propertyType: ['Single Family Home'], bedroomsMin: 2, locations: [{ city, stateCode: state }] },
	});
	lead.lastUpdateTime = lead.lastTouch ?? created;
	lead.assignedUserId = assignee.userId;
	lead.assignTime = created;
	lead.customRoleList = [{ roleId: 1, role: 'Agent', assigneeId: assignee.userId, assignee: assignee.email }];
	return lead;
}

function seedLogs(store: Store, r: () => number, lead: Lead, count: number, users: User[], start = T0, span = SPAN): void {
	const step = span / count;
	let stage = 'New';
	for (let k = 0; k < count; k++) {
		const t = Math.floor(start + k * step + r() * step * 0.5);
		const actor = pick(r, users);
		const kind = k % 8;
		if (kind === 0 || kind === 4) {
			const next = SEED_STAGES[(SEED_STAGES.indexOf(stage) + 1 + Math.floor(r() * 3)) % SEED_STAGES.length];
			const from = store.stageByName(stage)!;
			const to = store.stageByName(next)!;
			store.addSystemLog(lead.leadId, {
				timelineType: TL.STAGE_CHANGE, timelineTime: t, agentId: actor.userId,
				fromId: from.id, fromType: PARTY.STAGE, toId: to.id, toType: PARTY.STAGE,
				fromFirstName: from.name, toFirstName: to.name, canSticky: false,
				content: { fromStageName: from.name, toStageName: to.name },
			});
			stage = next;
		} else if (kind === 1) {
			const to = pick(r, users);
			store.addSystemLog(lead.leadId, {
				timelineType: TL.LEAD_ASSIGN, timelineTime: t, agentId: actor.userId,
				fromId: actor.userId, fromType: PARTY.AGENT, fromFirstName: actor.firstName, fromLastName: actor.lastName,
				toId: to.userId, toType: PARTY.AGENT, toFirstName: to.firstName, toLastName: to.lastName,
				refId: BigInt(2033000 + k), content: { role: 'Agent', routed: false },
			});
		} else if (kind === 2) {
			store.addSystemLog(lead.leadId, {
				timelineType: TL.SMART_PLAN_TASK, timelineTime: t, agentId: 0n, refId: BigInt(2033115 + k),
				content: { taskType: pick(r, ['Call', 'Email', 'Text']), taskContent: `Follow up #${k}`, planName: 'New Lead Nurture' },
			});
		} else if (kind === 3) {
			store.addSystemLog(lead.leadId, { timelineType: r() < 0.5 ? TL.EDIT_NOTE : TL.DELETE_NOTE, timelineTime: t, agentId: actor.userId, refId: BigInt(7700000 + k), content: { noteId: 7700000 + k } });
		} else if (kind === 5) {
			store.addSystemLog(lead.leadId, { timelineType: r() < 0.7 ? TL.SUBSCRIBE : TL.UNSUBSCRIBE, timelineTime: t, content: { channel: 'Email' } });
		} else if (kind === 6) {
			store.addSystemLog(lead.leadId, {
				timelineType: TL.LEAD_ROUTING, timelineTime: t, refId: BigInt(5500 + k),
				toId: actor.userId, toType: PARTY.AGENT, toFirstName: actor.firstName, toLastName: actor.lastName, content: { role: 'Agent', routed: true },
			});
		} else {
			store.addSystemLog(lead.leadId, { timelineType: TL.LENDER_ASSIGN, timelineTime: t, agentId: actor.userId, toId: actor.userId, toType: PARTY.LENDER, toFirstName: actor.firstName, toLastName: actor.lastName, content: { role: 'Lender' } });
		}
		// non-system timeline entries interleaved (never returned by /v1.0/systemLogs)
		if (k % 7 === 0) {
			const type = pick(r, [TL.CALL, TL.TEXT, TL.EMAIL, TL.SITE_VIEW, TL.SITE_SEARCH, TL.SITE_FAVORITE, TL.ADD_NOTE]);
			store.addSystemLog(lead.leadId, { timelineType: type, timelineTime: t + 1000, agentId: actor.userId, content: { text: 'not a system event' } });
		}
	}
	lead.stage = stage;
	lead.stageId = store.stageByName(stage)!.id;
}

const CADENCES: AlertCadence[] = ['INSTANTLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'NEVER'];

function seedSavedSearches(store: Store, lead: Lead, plan: Array<[SavedSearchSource, AlertCadence, string[]]>): void {
	plan.forEach(([source, cadence, unmapped], k) => {
		const t = T0 + (k + 1) * 11 * DAY;
		store.addSavedSearch(lead.leadId, {
			name: `${lead.city || 'Austin'} homes ${k + 1}`,
			source,
			alertCadence: cadence,
			unmappedCriteria: unmapped,
			createTime: t,
			updateTime: t + DAY,
			criteria: {
				location: { city: lead.city || 'Austin', stateCode: lead.state || 'TX' },
				priceMin: 250000 + k * 50000,
				priceMax: 650000 + k * 50000,
				bedroomsMin: 2 + (k % 3),
				bathroomsMin: 1 + (k % 2),
				propertyTypes: k % 2 ? ['Condo', 'Townhouse'] : ['Single Family Home'],
				keywords: k === 0 ? 'pool' : null,
			},
		});
	});
}

function seedActivities(store: Store, r: () => number, lead: Lead, v1: number, v2: number, users: User[]): void {
	const types = ['Search', 'Browse', 'Favorite', 'Request', 'Submission'];
	for (let k = 0; k < v1; k++) {
		const type = types[k % types.length];
		store.addActivity(lead.leadId, {
			type,
			text: type === 'Search' ? `Single Family Home in ${lead.city} #${k}` : `${100 + k} Oak Ave, ${lead.city}`,
			link: `https://example.com/listing/${1000 + k}`,
			picture: `https://example.com/img/${1000 + k}.jpg`,
			listing: type === 'Search' ? null : { streetAddress: `${100 + k} Oak Ave`, city: lead.city, state: lead.state, zipCode: lead.zipCode, price: 300000 + k * 1000, bedrooms: 3, bathrooms: 2 },
			created: T0 + k * 2 * 3_600_000 + Math.floor(r() * 3_000_000),
			scheduledDate: type === 'Request' ? '2025-07-01 10:00' : null,
			pageName: type === 'Submission' ? 'Blog Registration' : null,
		});
	}
	for (let k = 0; k < v2; k++) {
		const channel = (['Call', 'Text', 'Email'] as const)[k % 3];
		const agent = pick(r, users);
		store.addActivityV2(lead.leadId, {
			agentId: agent.userId,
			activityTime: T0 + k * DAY + Math.floor(r() * 3_600_000),
			channel,
			communicationType: (['Auto', 'Manual', 'Logged'] as const)[k % 3],
			direction: k % 2 ? 'Inbound' : 'Outbound',
			...(channel === 'Call' ? { callingOutcome: k % 2 ? 'Talked' : 'No Answer', leadPhoneNumber: lead.phones[0] ?? '+14155550000' } : {}),
			...(channel === 'Email' ? { emailEventType: pick(r, ['Sent', 'Opened', 'Bounced']), emailSubject: `Homes you may like #${k}` } : {}),
			...(k % 3 === 2 ? { note: `Logged by agent #${k}` } : {}),
		});
	}
}

/** Fill an empty store with the demo data set. */
export function seedStore(store: Store): void {
	const r = rng(20240101);
	SEED_STAGES.forEach((name, k) => store.stages.push({ id: BigInt(101 + k), name }));
	const { owner, other, members } = seedUsers(store);
	const agents = members.filter((u) => (u.roleName === 'Agent' || u.roleName === 'Owner') && u.status === 1 && u.accountStatus === 'ACTIVE');

	const demoLeads: Lead[] = [];
	for (let i = 0; i < 250; i++) {
		let id = 651095960136641n + BigInt(i) * 1013n;
		if (i === 3) id = 9007199254740993n;
		if (i === 4) id = 12345678901234567n;
		if (i === 5) id = 1125957935106829n;
		const assignee = i < 6 || r() < 0.4 ? owner : agents[i % agents.length];
		demoLeads.push(seedLead(store, r, i, id, owner, assignee));
	}
	const byId = (id: string): Lead => store.getLead(id)!;

	// other agent's leads: five not shared, one shared with the demo user
	for (let i = 0; i < 6; i++) {
		const id = i === 5 ? BigInt(SEED_IDS.sharedLeadId) : BigInt(SEED_IDS.notSharedLeadId) + BigInt(i) * 7n;
		const lead = seedLead(store, r, 300 + i, id, other, other);
		if (i === 5) lead.sharedUserIds = [owner.userId];
		seedLogs(store, r, lead, 5, [other]);
		if (i === 0) seedSavedSearches(store, lead, [['AGENT_CREATED', 'DAILY', []]]);
	}

	// timelines
	const logsLead = byId(SEED_IDS.logsLeadId);
	logsLead.firstName = 'Logan';
	logsLead.lastName = 'Timeline';
	seedLogs(store, r, logsLead, 2500, agents.slice(0, 6));
	for (const l of demoLeads.slice(6, 26)) seedLogs(store, r, l, 3 + (Number(l.leadId % 6n)), [owner, agents[1]], T0 + DAY, 300 * DAY);
	seedLogs(store, r, byId(SEED_IDS.bigLeadId), 6, [owner], T0 + 10 * DAY, 200 * DAY);

	// saved searches
	seedSavedSearches(store, byId(SEED_IDS.savedSearchLeadId), [
		['AGENT_CREATED', 'DAILY', []],
		['AGENT_CREATED', 'NEVER', ['schoolDistrict']],
		['LEAD_CREATED', 'INSTANTLY', []],
		['LEAD_CREATED', 'WEEKLY', ['hoaFeeMax', 'openHouseOnly']],
		['SYSTEM_CREATED', 'NEVER', []],
		['SYSTEM_CREATED', 'MONTHLY', ['polygon']],
	]);
	for (const l of demoLeads.slice(30, 40)) {
		const k = Number(l.leadId % 5n);
		seedSavedSearches(store, l, [[(['AGENT_CREATED', 'LEAD_CREATED', 'SYSTEM_CREATED'] as const)[k % 3], CADENCES[k], []]]);
	}

	// activities
	seedActivities(store, r, byId(SEED_IDS.activityLeadId), 320, 45, [owner, agents[1]]);
	for (const l of demoLeads.slice(40, 50)) seedActivities(store, r, l, 1 + Number(l.leadId % 5n), 2 + Number(l.leadId % 4n), [owner]);

	// trash
	const trashed = byId(SEED_IDS.trashedLeadId);
	trashed.deletedAt = T0 + 500 * DAY;
	trashed.deleteReason = 'Duplicate';
}
