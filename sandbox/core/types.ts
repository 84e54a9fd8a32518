/** Record types held by the sandbox store. All identifiers are `bigint` (int64, may exceed 2^53). */

export type IdLike = bigint | string | number;

export function toId(v: IdLike): bigint {
	return typeof v === 'bigint' ? v : BigInt(v);
}

export interface Office {
	id: bigint;
	teamId: bigint;
	parentId: bigint;
	name: string;
	city: string;
	state: string;
}

export interface User {
	/** team-member record id (UserResponse.id) */
	memberId: bigint;
	/** user id (UserResponse.memberUserId; the id used by assignedUserId, /users/{userId}) */
	userId: bigint;
	teamId: bigint;
	invitorUserId: bigint;
	role: number;
	roleName: 'Owner' | 'Admin' | 'Agent' | 'Assistant' | 'Lender';
	email: string;
	firstName: string;
	lastName: string;
	phoneNumber: string;
	/** 1 accepted the team invitation, 0 invitation pending */
	status: number;
	virtualNumber: string;
	isAdmin: boolean;
	timeZoneId: string;
	groupId: bigint;
	accountStatus: 'ACTIVE' | 'INACTIVE';
	licenseId: string;
}

export interface LeadTag {
	tagId: bigint;
	tagName: string;
	createTime: number;
	creatorUserId: bigint;
}

export interface LeadPropertyRecord {
	id: bigint;
	leadUserId: bigint;
	[field: string]: unknown;
}

export interface CustomRole {
	roleId: number;
	role: string;
	assigneeId: bigint;
	assignee: string;
}

export type OwnershipScope = 'PERSONAL' | 'TEAM' | 'OFFICE';

export interface Lead {
	leadId: bigint;
	leadUserId: bigint;
	teamId: bigint;
	firstName: string;
	lastName: string;
	birthday: string | null;
	emails: string[];
	phones: string[];
	phoneStatuses: number[];
	leadSource: number;
	source: string;
	stageId: bigint;
	stage: string;
	assignedUserId: bigint | null;
	lenderUserId: bigint | null;
	score: number;
	tags: LeadTag[];
	segments: string[];
	groups: string[];
	streetAddress: string;
	city: string;
	state: string;
	zipCode: string;
	createTime: number;
	assignTime: number | null;
	lastUpdateTime: number;
	lastTouch: number | null;
	lastVisit: number | null;
	contacted: boolean;
	facebook: string;
	twitter: string;
	hiddenFlag: boolean;
	cannotText: boolean;
	cannotCall: boolean;
	cannotEmail: boolean;
	unsubscription: boolean;
	referredBy: string;
	leadInquiry: Record<string, unknown> | null;
	properties: LeadPropertyRecord[];
	customAttributes: Array<Record<string, unknown>>;
	leadTypes: number[];
	language: string;
	/** buyingTimeFrame, preQual, houseToSell, fthb, withBuyerAgent, sellingTimeFrame, mortgage, buyHouse, withListingAgent */
	qualification: Record<string, string>;
	leadFamilyMemberList: Array<Record<string, unknown>>;
	customRoleList: CustomRole[];
	opportunity: string | null;
	/** PERSONAL owner (creator by default); owner, assignee and shared agents may access the lead */
	ownerUserId: bigint;
	ownershipScope: OwnershipScope;
	ownershipId: bigint | null;
	sharedUserIds: bigint[];
	deletedAt: number | null;
	deleteReason: string | null;
}

export interface SystemLogEntry {
	id: bigint;
	leadId: bigint;
	agentId: bigint;
	timelineType: number;
	timelineTime: number;
	createTime: number;
	updateTime: number;
	fromId: bigint;
	fromType: number;
	toId: bigint;
	toType: number;
	fromFirstName: string;
	fromLastName: string;
	toFirstName: string;
	toLastName: string;
	refId: bigint;
	sticky: boolean;
	canSticky: boolean;
	content: Record<string, unknown>;
}

export type SavedSearchSource = 'AGENT_CREATED' | 'LEAD_CREATED' | 'SYSTEM_CREATED';
export type AlertCadence = 'INSTANTLY' | 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'NEVER';

export interface SavedSearch {
	id: bigint;
	leadId: bigint;
	name: string;
	source: SavedSearchSource;
	criteria: Record<string, unknown>;
	/** names of filters the criteria model does not cover (their values are not returned) */
	unmappedCriteria: string[];
	alertCadence: AlertCadence;
	createTime: number;
	updateTime: number;
}

export interface ActivityV1 {
	id: bigint;
	leadId: bigint;
	type: string;
	text: string;
	link: string;
	picture: string;
	listing: Record<string, unknown> | null;
	created: number;
	scheduledDate: string | null;
	pageName: string | null;
}

export interface ActivityV2 {
	id: bigint;
	leadId: bigint;
	agentId: bigint;
	activityTime: number;
	channel: 'Call' | 'Text' | 'Email';
	communicationType: 'Auto' | 'Manual' | 'Logged';
	direction: 'Inbound' | 'Outbound';
	callingOutcome?: string;
	leadPhoneNumber?: string;
	emailEventType?: string;
	emailSubject?: string;
	note?: string;
}

export interface Stage {
	id: bigint;
	name: string;
}
