/**
 * In-memory data of the sandbox, with typed accessors for tests
 * (`sandbox.store.addLead(...)`, `sandbox.store.getLead(id)`, ...).
 */
import { shiftCounters } from './idStart';
import { PARTY, TL, isSystemType } from './timeline';
import {
	type ActivityV1,
	type ActivityV2,
	type IdLike,
	type Lead,
	type LeadTag,
	type Office,
	type SavedSearch,
	type Stage,
	type SystemLogEntry,
	type User,
	toId,
} from './types';

export type LeadInput = Omit<Partial<Lead>, 'ownerUserId' | 'leadId' | 'leadUserId'> & {
	firstName: string;
	ownerUserId: IdLike;
	leadId?: IdLike;
	leadUserId?: IdLike;
};
export type SystemLogInput = Partial<SystemLogEntry> & { timelineType: number };

const key = (v: IdLike): string => toId(v).toString();

export class Store {
	users = new Map<string, User>();
	offices = new Map<string, Office>();
	stages: Stage[] = [];
	leads = new Map<string, Lead>();
	timelines = new Map<string, SystemLogEntry[]>();
	savedSearches = new Map<string, SavedSearch[]>();
	activitiesV1 = new Map<string, ActivityV1[]>();
	activitiesV2 = new Map<string, ActivityV2[]>();

	nextLeadId = 9007199254800001n;
	nextLeadUserId = 880000000000001n;
	nextLogId = 1224565260755697664n;
	nextPropertyId = 70000001n;
	nextTagId = 5000001n;
	nextSavedSearchId = 610000001n;
	nextActivityId = 4400000001n;
	nextStageId = 300n;
	routingCursor = 0;

	/** Clock used for new records (overridable in tests). */
	now: () => number = () => Date.now();

	/** State of the resources (sandbox/resources/*), by module name; cleared with the store. */
	private extensions = new Map<string, unknown>();

	/** How far above their starts the ID counters are (core/idStart.ts); 0 after clear. */
	private idShift = 0n;

	/** The state object of a module, created on first use (its ID counters shifted as the store's). */
	ext<T>(name: string, init: () => T): T {
		if (!this.extensions.has(name)) {
			const state = init();
			if (typeof state === 'object' && state !== null) shiftCounters(state, this.idShift);
			this.extensions.set(name, state);
		}
		return this.extensions.get(name) as T;
	}

	/** New records of every kind get IDs `by` above the counters' present values, also in states made later. */
	shiftIds(by: bigint): void {
		this.idShift += by;
		shiftCounters(this, by);
		for (const state of this.extensions.values()) if (typeof state === 'object' && state !== null) shiftCounters(state, by);
	}

	clear(): void {
		this.extensions.clear();
		this.idShift = 0n;
		this.users.clear();
		this.offices.clear();
		this.stages = [];
		this.leads.clear();
		this.timelines.clear();
		this.savedSearches.clear();
		this.activitiesV1.clear();
		this.activitiesV2.clear();
		this.nextLeadId = 9007199254800001n;
		this.nextLeadUserId = 880000000000001n;
		this.nextLogId = 1224565260755697664n;
		this.nextPropertyId = 70000001n;
		this.nextTagId = 5000001n;
		this.nextSavedSearchId = 610000001n;
		this.nextActivityId = 4400000001n;
		this.nextStageId = 300n;
		this.routingCursor = 0;
	}

	// ---- users and offices ----

	addOffice(office: Office): Office {
		this.offices.set(key(office.id), office);
		return office;
	}

	addUser(user: User): User {
		this.users.set(key(user.userId), user);
		return user;
	}

	getUser(userId: IdLike): User | undefined {
		return this.users.get(key(userId));
	}

	findUserByEmail(email: string): User | undefined {
		const e = email.trim().toLowerCase();
		for (const u of this.users.values()) if (u.email.toLowerCase() === e) return u;
		return undefined;
	}

	teamMembers(teamId: bigint): User[] {
		return [...this.users.values()].filter((u) => u.teamId === teamId).sort((a, b) => (a.memberId < b.memberId ? -1 : 1));
	}

	/** The office and (optionally) all offices below it. */
	officeTree(officeId: bigint, withSub: boolean): Set<bigint> {
		const out = new Set<bigint>([officeId]);
		if (!withSub) return out;
		let grew = true;
		while (grew) {
			grew = false;
			for (const o of this.offices.values()) {
				if (!out.has(o.id) && out.has(o.parentId)) {
					out.add(o.id);
					grew = true;
				}
			}
		}
		return out;
	}

	/** Next agent of lead routing: deterministic round robin over accepted, active agents. */
	routeAgent(teamId: bigint, advance = true): User | undefined {
		const agents = this.teamMembers(teamId).filter(
			(u) => (u.roleName === 'Agent' || u.roleName === 'Owner') && u.status === 1 && u.accountStatus === 'ACTIVE',
		);
		if (agents.length === 0) return undefined;
		const agent = agents[this.routingCursor % agents.length];
		if (advance) this.routingCursor++;
		return agent;
	}

	// ---- stages ----

	stageByName(name: string, create = true): Stage | undefined {
		const found = this.stages.find((s) => s.name.toLowerCase() === name.trim().toLowerCase());
		if (found || !create) return found;
		const stage = { id: this.nextStageId++, name: name.trim() };
		this.stages.push(stage);
		return stage;
	}

	// ---- leads ----

	addLead(full: LeadInput): Lead {
		const { leadId: rawLeadId, leadUserId: rawLeadUserId, ownerUserId, ...input } = full;
		const now = input.createTime ?? this.now();
		const stage = this.stageByName(input.stage ?? 'New')!;
		const leadId = rawLeadId !== undefined ? toId(rawLeadId) : this.nextLeadId++;
		const lead: Lead = {
			leadUserId: rawLeadUserId !== undefined ? toId(rawLeadUserId) : this.nextLeadUserId++,
			teamId: input.teamId ?? this.getUser(ownerUserId)?.teamId ?? 0n,
			lastName: '',
			birthday: null,
			emails: [],
			phones: [],
			phoneStatuses: [],
			leadSource: 0,
			source: 'Open API',
			assignedUserId: null,
			lenderUserId: null,
			score: 0,
			tags: [],
			segments: [],
			groups: [],
			streetAddress: '',
			city: '',
			state: '',
			zipCode: '',
			assignTime: null,
			lastUpdateTime: now,
			lastTouch: null,
			lastVisit: null,
			contacted: false,
			facebook: '',
			twitter: '',
			hiddenFlag: false,
			cannotText: false,
			cannotCall: false,
			cannotEmail: false,
			unsubscription: false,
			referredBy: '',
			leadInquiry: null,
			properties: [],
			customAttributes: [],
			leadTypes: [],
			language: 'en',
			qualification: {},
			leadFamilyMemberList: [],
			customRoleList: [],
			opportunity: null,
			ownershipScope: 'PERSONAL',
			ownershipId: null,
			sharedUserIds: [],
			deletedAt: null,
			deleteReason: null,
			...input,
			leadId,
			createTime: now,
			stage: stage.name,
			stageId: stage.id,
			ownerUserId: toId(ownerUserId),
		};
		if (lead.ownershipScope === 'PERSONAL' && lead.ownershipId === null) lead.ownershipId = lead.ownerUserId;
		this.leads.set(key(leadId), lead);
		return lead;
	}

	getLead(leadId: IdLike): Lead | undefined {
		return this.leads.get(key(leadId));
	}

	/** The caller may read and manage a lead when it owns it, is assigned to it, or it is shared with them. */
	canAccess(userId: IdLike, lead: Lead): boolean {
		const uid = toId(userId);
		const user = this.getUser(uid);
		if (!user || user.teamId !== lead.teamId) return false;
		if (lead.ownerUserId === uid || lead.assignedUserId === uid || lead.sharedUserIds.includes(uid)) return true;
		if (lead.ownershipScope === 'TEAM') return true;
		if (lead.ownershipScope === 'OFFICE' && lead.ownershipId !== null) return user.groupId === lead.ownershipId;
		return false;
	}

	makeTag(name: string, creatorUserId: bigint, time = this.now()): LeadTag {
		return { tagId: this.nextTagId++, tagName: name, createTime: time, creatorUserId };
	}

	/** Change the stage, appending a TeamStageChange (38) system-log entry. */
	changeStage(lead: Lead, stageName: string, actor: User | undefined, time = this.now()): void {
		const from = { id: lead.stageId, name: lead.stage };
		const to = this.stageByName(stageName)!;
		if (to.id === from.id) return;
		lead.stage = to.name;
		lead.stageId = to.id;
		this.addSystemLog(lead.leadId, {
			timelineType: TL.STAGE_CHANGE,
			timelineTime: time,
			agentId: actor?.userId ?? 0n,
			fromId: from.id,
			fromType: PARTY.STAGE,
			toId: to.id,
			toType: PARTY.STAGE,
			fromFirstName: from.name,
			toFirstName: to.name,
			content: { fromStageName: from.name, toStageName: to.name },
		});
	}

	/** Assign the lead's agent, appending a LeadAssign (40) or LeadRouting (41) entry. */
	assignAgent(lead: Lead, agent: User, actor: User | undefined, routed: boolean, time = this.now()): void {
		if (lead.assignedUserId === agent.userId) return;
		const prev = lead.assignedUserId !== null ? this.getUser(lead.assignedUserId) : undefined;
		lead.assignedUserId = agent.userId;
		lead.assignTime = time;
		lead.customRoleList = lead.customRoleList.filter((r) => r.role !== 'Agent');
		lead.customRoleList.unshift({ roleId: 1, role: 'Agent', assigneeId: agent.userId, assignee: agent.email });
		this.addSystemLog(lead.leadId, {
			timelineType: routed ? TL.LEAD_ROUTING : TL.LEAD_ASSIGN,
			timelineTime: time,
			agentId: routed ? 0n : (actor?.userId ?? 0n),
			fromId: prev?.userId ?? 0n,
			fromType: prev ? PARTY.AGENT : PARTY.OTHER,
			fromFirstName: prev?.firstName ?? '',
			fromLastName: prev?.lastName ?? '',
			toId: agent.userId,
			toType: PARTY.AGENT,
			toFirstName: agent.firstName,
			toLastName: agent.lastName,
			content: { role: 'Agent', routed },
		});
	}

	// ---- timeline / system logs ----

	addSystemLog(leadId: IdLike, input: SystemLogInput): SystemLogEntry {
		const lid = toId(leadId);
		const t = input.timelineTime ?? this.now();
		const entry: SystemLogEntry = {
			agentId: 0n,
			createTime: t,
			updateTime: t,
			fromId: 0n,
			fromType: PARTY.OTHER,
			toId: lid,
			toType: PARTY.LEAD,
			fromFirstName: '',
			fromLastName: '',
			toFirstName: '',
			toLastName: '',
			refId: 0n,
			sticky: false,
			canSticky: false,
			content: {},
			...input,
			id: input.id ?? this.nextLogId++,
			leadId: lid,
			timelineTime: t,
		};
		const list = this.timelines.get(key(lid)) ?? [];
		list.push(entry);
		this.timelines.set(key(lid), list);
		return entry;
	}

	/** Whole timeline of a lead (system and non-system entries), unsorted. */
	timelineOf(leadId: IdLike): SystemLogEntry[] {
		return this.timelines.get(key(leadId)) ?? [];
	}

	/** System-type entries only, newest first. */
	systemLogsOf(leadId: IdLike): SystemLogEntry[] {
		return this.timelineOf(leadId)
			.filter((e) => isSystemType(e.timelineType))
			.sort((a, b) => b.timelineTime - a.timelineTime || (b.id > a.id ? 1 : b.id < a.id ? -1 : 0));
	}

	// ---- saved searches ----

	addSavedSearch(leadId: IdLike, input: Omit<SavedSearch, 'id' | 'leadId' | 'createTime' | 'updateTime'> & Partial<SavedSearch>): SavedSearch {
		const t = input.createTime ?? this.now();
		const s: SavedSearch = { createTime: t, updateTime: t, ...input, id: input.id ?? this.nextSavedSearchId++, leadId: toId(leadId) };
		const list = this.savedSearches.get(key(leadId)) ?? [];
		list.push(s);
		this.savedSearches.set(key(leadId), list);
		return s;
	}

	savedSearchesOf(leadId: IdLike): SavedSearch[] {
		return this.savedSearches.get(key(leadId)) ?? [];
	}

	// ---- activities ----

	addActivity(leadId: IdLike, input: Omit<ActivityV1, 'id' | 'leadId'> & { id?: bigint }): ActivityV1 {
		const a: ActivityV1 = { ...input, id: input.id ?? this.nextActivityId++, leadId: toId(leadId) };
		const list = this.activitiesV1.get(key(leadId)) ?? [];
		list.push(a);
		this.activitiesV1.set(key(leadId), list);
		return a;
	}

	/** v1 activities, newest first. */
	activitiesOf(leadId: IdLike): ActivityV1[] {
		return [...(this.activitiesV1.get(key(leadId)) ?? [])].sort((a, b) => b.created - a.created || (b.id > a.id ? 1 : -1));
	}

	addActivityV2(leadId: IdLike, input: Omit<ActivityV2, 'id' | 'leadId'> & { id?: bigint }): ActivityV2 {
		const a: ActivityV2 = { ...input, id: input.id ?? this.nextActivityId++, leadId: toId(leadId) };
		const list = this.activitiesV2.get(key(leadId)) ?? [];
		list.push(a);
		this.activitiesV2.set(key(leadId), list);
		return a;
	}

	/** v2 activities, oldest first. */
	activitiesV2Of(leadId: IdLike): ActivityV2[] {
		return [...(this.activitiesV2.get(key(leadId)) ?? [])].sort((a, b) => a.activityTime - b.activityTime || (a.id < b.id ? -1 : 1));
	}
}
