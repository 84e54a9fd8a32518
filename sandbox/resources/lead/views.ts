/** Wire shapes of leads and their parts: LeadResponse, saved searches, activities (field names from the OpenAPI schemas). */
import { readingsOf } from '../../core/readings';
import type { Store } from '../../core/store';
import { isoInZone, isoUtc } from '../../core/time';
import type { ActivityV1, ActivityV2, Lead, SavedSearch } from '../../core/types';

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : isoUtc(ms));

/** Numbers of the inquiry and of a property that Lofty answers for every lead, set or not (LeadInquiry, LeadProperty). */
const INQUIRY_NUMBERS = ['priceMin', 'priceMax', 'bedroomsMin', 'bedroomsMax'];
const PROPERTY_NUMBERS = ['price', 'priceMin', 'priceMax', 'bedrooms', 'bathrooms', 'squareFeet', 'lotSize', 'parkingSpace', 'floors'];

/**
 * An unset number as the reading unsetNumbers says: -1 as Lofty's live service answers it (`live`, the default), or
 * null (`null`). Seventeen fields: four of the lead, four of its inquiry, nine of each property.
 */
function unsetAs(store: Store): -1 | null {
	return readingsOf(store).get('unsetNumbers') === 'live' ? -1 : null;
}

function withUnset(record: Record<string, unknown>, fields: string[], unset: -1 | null): Record<string, unknown> {
	const out = { ...record };
	for (const name of fields) if (out[name] === undefined || out[name] === null) out[name] = unset;
	return out;
}

/** Field names of LeadResponse, in wire order. */
export const LEAD_FIELDS = [
	'cannotText', 'cannotCall', 'cannotEmail', 'leadId', 'leadUserId', 'firstName', 'lastName', 'birthday', 'emails', 'phones',
	'leadSource', 'source', 'stageId', 'stage', 'assignedUserId', 'assignedUser', 'lenderUserId', 'score', 'tags', 'teamId',
	'streetAddress', 'city', 'state', 'zipCode', 'createTime', 'assignTime', 'facebook', 'twitter', 'hiddenFlag', 'referredBy',
	'leadInquiry', 'leadPropertyList', 'customAttributes', 'lastUpdateTime', 'groups', 'segments', 'unsubscription', 'leadTypes',
	'lastTouch', 'lastVisit', 'phoneStatuses', 'assignCompletionStatus', 'buyingTimeFrame', 'preQual', 'houseToSell', 'fthb',
	'withBuyerAgent', 'sellingTimeFrame', 'mortgage', 'buyHouse', 'withListingAgent', 'opportunity', 'leadFamilyMemberList',
	'pondId', 'pondName', 'customRoleList', 'language', 'ownershipId', 'ownershipScope',
];

/** LeadResponse */
export function leadView(lead: Lead, store: Store): Record<string, unknown> {
	const assigned = lead.assignedUserId !== null ? store.getUser(lead.assignedUserId) : undefined;
	const unset = unsetAs(store);
	return {
		cannotText: lead.cannotText,
		cannotCall: lead.cannotCall,
		cannotEmail: lead.cannotEmail,
		leadId: lead.leadId,
		leadUserId: lead.leadUserId,
		firstName: lead.firstName,
		lastName: lead.lastName,
		birthday: lead.birthday,
		emails: lead.emails,
		phones: lead.phones,
		leadSource: lead.leadSource,
		source: lead.source,
		stageId: lead.stageId,
		stage: lead.stage,
		assignedUserId: lead.assignedUserId ?? unset,
		assignedUser: assigned ? `${assigned.firstName} ${assigned.lastName}` : '',
		lenderUserId: lead.lenderUserId ?? unset,
		score: lead.score,
		tags: lead.tags.map((t) => ({
			leadId: lead.leadId,
			tagId: t.tagId,
			createTime: isoUtc(t.createTime),
			updateTime: isoUtc(t.createTime),
			tagName: t.tagName,
			creatorUserId: t.creatorUserId,
			visibleType: 0,
		})),
		teamId: lead.teamId,
		streetAddress: lead.streetAddress,
		city: lead.city,
		state: lead.state,
		zipCode: lead.zipCode,
		createTime: isoUtc(lead.createTime),
		assignTime: isoOrNull(lead.assignTime),
		facebook: lead.facebook,
		twitter: lead.twitter,
		hiddenFlag: lead.hiddenFlag,
		referredBy: lead.referredBy,
		leadInquiry: lead.leadInquiry && withUnset(lead.leadInquiry, INQUIRY_NUMBERS, unset),
		leadPropertyList: lead.properties.map((p) => withUnset(p as unknown as Record<string, unknown>, PROPERTY_NUMBERS, unset)),
		customAttributes: lead.customAttributes,
		lastUpdateTime: isoUtc(lead.lastUpdateTime),
		groups: lead.groups,
		segments: lead.segments,
		unsubscription: lead.unsubscription,
		leadTypes: lead.leadTypes,
		lastTouch: isoOrNull(lead.lastTouch),
		lastVisit: isoOrNull(lead.lastVisit),
		phoneStatuses: lead.phoneStatuses,
		assignCompletionStatus: lead.assignedUserId !== null,
		buyingTimeFrame: lead.qualification.buyingTimeFrame ?? null,
		preQual: lead.qualification.preQual ?? null,
		houseToSell: lead.qualification.houseToSell ?? null,
		fthb: lead.qualification.fthb ?? null,
		withBuyerAgent: lead.qualification.withBuyerAgent ?? null,
		sellingTimeFrame: lead.qualification.sellingTimeFrame ?? null,
		mortgage: lead.qualification.mortgage ?? null,
		buyHouse: lead.qualification.buyHouse ?? null,
		withListingAgent: lead.qualification.withListingAgent ?? null,
		opportunity: lead.opportunity,
		leadFamilyMemberList: lead.leadFamilyMemberList,
		pondId: unset,
		pondName: null,
		customRoleList: lead.customRoleList,
		language: lead.language,
		ownershipId: lead.ownershipScope === 'TEAM' ? unset : (lead.ownershipId ?? unset),
		ownershipScope: lead.ownershipScope,
	};
}


export function isActiveSearch(s: SavedSearch): boolean {
	return s.alertCadence !== 'NEVER';
}

export function savedSearchView(s: SavedSearch): Record<string, unknown> {
	return {
		id: s.id,
		leadId: s.leadId,
		name: s.name,
		source: s.source,
		criteria: s.criteria,
		unmappedCriteria: s.unmappedCriteria,
		alert: { cadence: s.alertCadence, active: isActiveSearch(s) },
		active: isActiveSearch(s),
		createTime: isoUtc(s.createTime),
		updateTime: isoUtc(s.updateTime),
	};
}

/** LeadActivity */
export function activityV1View(a: ActivityV1): Record<string, unknown> {
	return {
		type: a.type,
		text: a.text,
		link: a.link,
		picture: a.picture,
		listing: a.listing,
		created: a.created,
		scheduledDate: a.scheduledDate,
		pageName: a.pageName,
	};
}

/** ActivityItem */
export function activityV2View(a: ActivityV2, timeZone: string): Record<string, unknown> {
	return {
		id: a.id,
		leadId: a.leadId,
		agentId: a.agentId,
		activityTime: isoInZone(a.activityTime, timeZone),
		channel: a.channel,
		communicationType: a.communicationType,
		direction: a.direction,
		callingOutcome: a.callingOutcome ?? null,
		leadPhoneNumber: a.leadPhoneNumber ?? null,
		emailEventType: a.emailEventType ?? null,
		emailSubject: a.emailSubject ?? null,
		note: a.note ?? null,
	};
}
