import type { IDataObject } from 'n8n-workflow';

import { InvalidValue } from '../../model/params';
import type { OperationContext, ParamDef, ResourceDef } from '../../model/types';
import { leadInPath } from '../lead';

const noteInPath: ParamDef = {
	name: 'noteId',
	label: 'Note ID',
	type: 'id',
	in: 'path',
	required: true,
	placeholder: 'e.g. 400000012345',
	description: "The note's ID (noteId in Lofty's answers, not the timeline ID)",
};

/** Lofty keeps at most 2000 characters and cuts longer notes silently; the node refuses them instead. */
const contentParam: ParamDef = {
	name: 'content',
	label: 'Content',
	type: 'string',
	in: 'body',
	required: true,
	maxLength: 2000,
	description: 'Text of the note (at most 2000 characters)',
};

const pinParam: ParamDef = {
	name: 'isPin',
	label: 'Pin',
	type: 'boolean',
	in: 'body',
	required: true,
	default: false,
	description: "Whether the note is pinned to the top of the lead's timeline",
};

const NOTE_TYPES = ['AI', 'Manual', 'System'];

const LEAD_HINT = 'The lead does not exist, is in the trash, or the user behind this credential cannot see it. Check the lead ID.';
const NOTE_HINT =
	'The note does not exist, was deleted, or belongs to a lead the user behind this credential cannot see. Lofty saves new notes in the background: a note created moments ago can take a few seconds to become readable, so wait briefly (for example with a Wait node) and try again.';
const INVALID_HINT = 'Lofty rejected a value: the note text must not be blank, Pin must be set, and the lead ID must be a real lead.';

/**
 * A note's type for the Note Types filter (docs/api-readings.md, row 5). The spec's note has `noteType` (Manual,
 * System, AI); the OpenAPI's NoteResponse has only `systemNote`. Without noteType, systemNote tells System from
 * the rest, but not AI from Manual: a filter that needs that distinction is refused, naming the reading.
 */
function noteTypeOf(note: IDataObject, wanted: string[]): string {
	if (typeof note.noteType === 'string') return note.noteType;
	if (typeof note.systemNote !== 'boolean') return '';
	if (note.systemNote) return 'System';
	if (wanted.includes('AI') !== wanted.includes('Manual')) {
		throw new InvalidValue(
			'Note Types',
			"Lofty's notes carry no noteType here, only systemNote (as in its OpenAPI), so AI notes cannot be told from manual ones; choose AI and Manual together, or System only",
		);
	}
	return wanted.includes('Manual') ? 'Manual' : 'AI';
}

export const note: ResourceDef = {
	value: 'note',
	name: 'Note',
	description: 'Notes on leads',
	errorHints: {
		'20006': LEAD_HINT,
		LEAD_NOT_EXIST: LEAD_HINT,
		'20007': NOTE_HINT,
		RESOURCE_NOT_EXIST: NOTE_HINT,
		'20012': INVALID_HINT,
		INVALID_PARAMETER: INVALID_HINT,
		INVALID_UPDATE_OPERATION_LEADID: "The note belongs to another lead than the Lead ID given. Leave Lead ID empty, or give the note's own lead.",
	},
	operations: [
		{
			value: 'create',
			name: 'Create',
			action: 'Add a note to a lead',
			description: 'Add a note to a lead',
			method: 'POST',
			effect: 'write',
			path: '/v1.0/notes',
			notice: 'Lofty saves a new note in the background: reading or updating it right after creating it may briefly fail with "note not found".',
			params: [{ ...leadInPath, in: 'body', description: 'The lead to add the note to: pick it from the list, or give its ID or its Lofty URL' }, contentParam, pinParam],
		},
		{
			value: 'delete',
			name: 'Delete',
			action: 'Delete a note',
			description: 'Delete a note of a lead',
			method: 'DELETE',
			effect: 'destructive',
			path: '/v1.0/notes/{noteId}',
			params: [noteInPath],
			output: (response, op) => ({
				deleted: true,
				noteId: op.values.noteId as string,
				...(response !== null && typeof response === 'object' && !Array.isArray(response) ? (response as IDataObject) : {}),
			}),
		},
		{
			value: 'get',
			name: 'Get',
			action: 'Get a note by ID',
			description: 'Get one note by its ID',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/notes/{noteId}',
			params: [noteInPath],
			unwrap: 'note',
		},
		{
			value: 'getAll',
			name: 'Get Many',
			action: 'Get the notes of a lead',
			description: 'All notes of a lead (Lofty returns them in no particular order)',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/notes',
			params: [
				{ ...leadInPath, in: 'query' },
				{ name: 'includeSystemNote', label: 'Include System Notes', type: 'boolean', in: 'query', description: 'Whether automated (system-generated) notes are returned too' },
				{
					name: 'noteTypes',
					label: 'Note Types',
					type: 'multiOptions',
					in: 'local',
					options: NOTE_TYPES.map((value) => ({ name: value, value })),
					description: 'Keep only notes of these types; all when empty. Choosing System also switches on Include System Notes.',
				},
			],
			toWire(op) {
				if ((op.values.noteTypes as string[] | undefined)?.includes('System')) op.values.includeSystemNote = true;
			},
			output(response, op: OperationContext) {
				const list = Array.isArray(response) ? response : (response as IDataObject | undefined)?.notes;
				const notes = Array.isArray(list) ? (list as IDataObject[]) : [];
				const types = op.values.noteTypes as string[] | undefined;
				return types ? notes.filter((n) => types.includes(noteTypeOf(n, types))) : notes;
			},
		},
		{
			value: 'update',
			name: 'Update',
			action: 'Update the text of a note',
			description: 'Replace the text and pin state of a note',
			method: 'PUT',
			effect: 'write',
			path: '/v1.0/notes/{noteId}',
			params: [
				noteInPath,
				{ ...contentParam, description: 'New text of the note (at most 2000 characters); it replaces the old text' },
				pinParam,
				{
					...leadInPath,
					in: 'body',
					required: false,
					description: 'The lead the note belongs to; when given, Lofty refuses the update if the note belongs to another lead',
				},
			],
			output: (response, op) => ({
				noteId: op.values.noteId as string,
				updated: true,
				...(response !== null && typeof response === 'object' && !Array.isArray(response) ? (response as IDataObject) : {}),
			}),
		},
	],
};
