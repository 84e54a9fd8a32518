import { AGENT_ZONE_VERSION } from './agentZone';
import { CUSTOM_FIELDS_VERSION } from './customFieldsEditor';
import { OUTPUT_VERSION } from './output';

/**
 * The Lofty node's versions and what each brought (a workflow keeps the version it was saved with):
 *   1.1: the Output choice (Simplified / Raw / Selected Fields) replaces the Simplify switch;
 *   1.2: one set of tag fields per operation (Lead > Create shows Tags only, no more "Tags to Add");
 *   1.3: a time for an agent (a task's due time, an appointment, a calendar entry) given without a UTC offset is read
 *        in the Lofty user's time zone by default (Times Without Offset Are In; earlier versions: the workflow's);
 *   1.4: transaction custom fields under names of their own (the editor lists them anew after a switch from Lead),
 *        and Multi-Choice Values on writes to an existing record (add to the current choices, the default, or replace
 *        them; earlier versions replace them, but Create or Update's Only Fill Empty Fields adds them).
 */
export const ONE_TAG_SET_VERSION = 1.2;

export const NODE_VERSIONS = [1, OUTPUT_VERSION, ONE_TAG_SET_VERSION, AGENT_ZONE_VERSION, CUSTOM_FIELDS_VERSION];

export const NEWEST_VERSION = NODE_VERSIONS[NODE_VERSIONS.length - 1];
