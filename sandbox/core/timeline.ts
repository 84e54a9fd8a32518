/**
 * Timeline type codes. api-spec.md names only 38 (TeamStageChange), 103 (smart-plan task)
 * and 17/18 (edit/delete note); the other codes and names below are sandbox choices.
 * `system: false` types live in a lead's timeline but GET /v1.0/systemLogs never returns them.
 */

export interface TimelineType {
	code: number;
	desc: string;
	system: boolean;
}

export const TIMELINE_TYPES: Record<number, TimelineType> = {};

function def(code: number, desc: string, system: boolean): number {
	TIMELINE_TYPES[code] = { code, desc, system };
	return code;
}

export const TL = {
	CALL: def(1, 'Call', false),
	TEXT: def(2, 'Text', false),
	EMAIL: def(3, 'Email', false),
	SITE_SEARCH: def(10, 'SiteSearch', false),
	SITE_VIEW: def(11, 'SiteView', false),
	SITE_FAVORITE: def(12, 'SiteFavorite', false),
	ADD_NOTE: def(16, 'AddNote', false),
	EDIT_NOTE: def(17, 'EditNote', true),
	DELETE_NOTE: def(18, 'DeleteNote', true),
	STAGE_CHANGE: def(38, 'TeamStageChange', true),
	LEAD_ASSIGN: def(40, 'LeadAssign', true),
	LEAD_ROUTING: def(41, 'LeadRouting', true),
	LENDER_ASSIGN: def(42, 'LenderAssign', true),
	SUBSCRIBE: def(45, 'EmailSubscribe', true),
	UNSUBSCRIBE: def(46, 'EmailUnsubscribe', true),
	SMART_PLAN_TASK: def(103, 'SmartPlanTask', true),
} as const;

/** FROM/TO party types (api-spec.md). */
export const PARTY = { OTHER: 0, AGENT: 1, LEAD: 2, STAGE: 3, LENDER: 5, POND: 6, PROPERTY: 10 } as const;

export function isSystemType(code: number): boolean {
	return TIMELINE_TYPES[code]?.system === true;
}
