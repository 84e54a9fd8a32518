import type { IBuilderHint, IParameterBuilderHint, IRelatedNode } from 'n8n-workflow';

import type { ParamDef } from './types';

/**
 * What n8n's AI workflow builder (and its instance MCP server) reads about the three Lofty nodes: a search hint on each
 * node, the nodes that work with it, and hints on the fields models fill wrongly (IDs as text, tag names, times with
 * an offset). n8n-workflow 2.41 shape; older n8n lines ignore the fields. No expression syntax and no connection
 * names in these texts (n8n's lint rule no-builder-hint-leakage).
 */
const PACKAGE = 'n8n-nodes-lofty';

const RELATED: Record<'lofty' | 'loftyTrigger' | 'loftyPollingTrigger', IRelatedNode> = {
	lofty: { nodeType: `${PACKAGE}.lofty`, relationHint: 'Reads and changes Lofty records: leads, notes, tasks, appointments, transactions, texts and emails' },
	loftyTrigger: { nodeType: `${PACKAGE}.loftyTrigger`, relationHint: 'Starts a workflow the moment a Lofty event happens (new or changed lead, call, text, stage change) over a webhook' },
	loftyPollingTrigger: {
		nodeType: `${PACKAGE}.loftyPollingTrigger`,
		relationHint: 'Starts a workflow on new Lofty leads, calls, texts and emails by checking on a schedule, when n8n has no public address',
	},
};

const related = (self: keyof typeof RELATED): IRelatedNode[] => (Object.keys(RELATED) as Array<keyof typeof RELATED>).filter((k) => k !== self).map((k) => RELATED[k]);

export const LOFTY_BUILDER_HINT: IBuilderHint = {
	searchHint:
		'Lofty real-estate CRM (formerly Chime): leads (people), notes, tasks, appointments, calls, texts, emails, transactions, agents. ' +
		'Use it instead of HTTP Request for anything in Lofty. To add or change a person use Lead > Create or Update (finds them by email or phone first). ' +
		'Send SMS and Send Email reach a real person; deletes cannot be undone.',
	relatedNodes: related('lofty'),
};

export const LOFTY_TRIGGER_BUILDER_HINT: IBuilderHint = {
	searchHint:
		'Starts a workflow when something happens in the Lofty real-estate CRM: a lead is created or changed, a call, text or email, a stage change, a task. ' +
		'Needs a public HTTPS address for n8n; otherwise use the Lofty Polling Trigger.',
	relatedNodes: related('loftyTrigger'),
};

export const LOFTY_POLLING_TRIGGER_BUILDER_HINT: IBuilderHint = {
	searchHint: 'Starts a workflow on new Lofty leads, calls, texts and emails by checking on a schedule; works without a public address for n8n.',
	relatedNodes: related('loftyPollingTrigger'),
};

const TEXT_ID: IParameterBuilderHint = { propertyHint: 'An ID given as text exactly as Lofty or the other system returned it; never invented.' };

/** The hint a field of the given kind gets, where models go wrong; none for the others. */
export function paramBuilderHint(p: ParamDef): IParameterBuilderHint | undefined {
	switch (p.type) {
		case 'string':
			return /Id$/.test(p.name) ? TEXT_ID : undefined;
		case 'locator':
		case 'id':
		case 'idList':
			if (p.locator?.idKind === 'text') return TEXT_ID;
			return { propertyHint: 'A Lofty ID: digits given as a string, copied exactly from an earlier Lofty node (IDs exceed 2^53 and lose digits as numbers); never invented.' };
		case 'tagList':
			return { propertyHint: "Tag names as text (a list, or names separated by commas), e.g. Hot Lead; matched to the team's existing tags ignoring case." };
		case 'dateTime':
			return { propertyHint: 'An ISO 8601 date and time with its UTC offset, e.g. 2026-06-01T09:00:00-04:00 (the offset of the time zone meant).' };
		default:
			return undefined;
	}
}
