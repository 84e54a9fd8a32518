import type { IDataObject, IExecuteFunctions, IHttpRequestMethods, INodePropertyOptions } from 'n8n-workflow';

import type { Pagination } from '../transport/pagination';
import type { QueryValue } from '../transport/request';

/**
 * How a parameter is shown and what it becomes on the wire:
 * - string, number, boolean, options, multiOptions, json: as n8n shows them;
 * - id: a 64-bit Lofty ID typed as text, checked to be a positive integer, sent exactly;
 * - locator: a record picked from a searchable list, by ID or by URL (see LocatorDef), sent like `id`;
 * - dateTime: n8n's date picker, sent as epoch milliseconds unless `format` says otherwise;
 * - stringList / idList: several values, sent as an array (body) or comma-joined (query);
 * - tagList: lead tag names picked from the team's tags (a dropdown) or given by an expression (a list or
 *   comma-separated text); split, trimmed, deduplicated ignoring case, and spelled as the team's existing tag
 *   (model/tags.ts); sent like stringList;
 * - fixedCollection: rows of sub-fields (for example assignees), sent as an array of objects.
 */
export type ParamType =
	| 'string'
	| 'number'
	| 'boolean'
	| 'options'
	| 'multiOptions'
	| 'json'
	| 'id'
	| 'locator'
	| 'dateTime'
	| 'stringList'
	| 'tagList'
	| 'idList'
	| 'fixedCollection';

/** `local`: read and checked, never sent (it shapes the output, e.g. a filter Lofty lacks). */
export type ParamLocation = 'path' | 'query' | 'body' | 'local';

/** A resource locator: what the user picks, how the list is searched, how an ID or URL is read. */
export interface LocatorDef {
	/** Name of the listSearch method that fills "From List". */
	searchMethod: string;
	/** e.g. `651095960136641` */
	idPlaceholder: string;
	/** Regex whose first group is the ID inside a Lofty URL; no "By URL" mode without it. */
	urlRegex?: string;
	urlPlaceholder?: string;
	/** IDs are 64-bit integers unless they are text (calendar entries: `123-task`). */
	idKind?: 'int64' | 'text';
}

export interface ParamDef {
	/** n8n parameter name; also the wire name unless `key` is given. */
	name: string;
	/** Field label in the editor (also used in error messages). */
	label: string;
	type: ParamType;
	in: ParamLocation;
	/** Wire name; dots nest inside the body (`inquiry.priceMin`). */
	key?: string;
	required?: boolean;
	default?: string | number | boolean | string[] | IDataObject;
	description?: string;
	hint?: string;
	placeholder?: string;
	options?: INodePropertyOptions[];
	/** For `locator`: what is picked and how. */
	locator?: LocatorDef;
	/** Name of a loadOptions method filling the dropdown from the API. */
	loadOptions?: string;
	/** Parameters whose change reloads that dropdown (e.g. statuses after the type). */
	loadOptionsDependsOn?: string[];
	min?: number;
	max?: number;
	/** For `number`: a whole number (the OpenAPI types it as an integer); a decimal is refused before sending. */
	integer?: boolean;
	maxLength?: number;
	/** For lists: largest number of entries. */
	maxItems?: number;
	/**
	 * For `string` and `stringList`: each value must be an email address or a phone number (model/contacts.ts, one rule
	 * for every field); `leadPhone`: a phone stored on a lead, sent in its normal form (+14155551234).
	 */
	contact?: 'email' | 'phone' | 'leadPhone';
	/** For `dateTime`: a time for the agent (a due time, an appointment): read in the Lofty user's zone (model/agentZone.ts). */
	agentTime?: boolean;
	/**
	 * Assigns the entry by role on the lead's team (Assigned Role: the lead's agent or assistant): agent times without
	 * offset are then read in the assignee's zone (model/assigneeZone.ts). `entry`: names an existing task or
	 * appointment (V1 or V2); its times are read in the zone of the entry's assignee, or, when the operation also has
	 * a `leadRole` parameter and the item gives it, in the zone of that role's user on the entry's lead.
	 */
	assignsTo?: 'leadRole' | 'entry';
	/**
	 * With `assignsTo: 'entry'`, where the entry is read (GET) when not at the operation's own path: `{id}` is the
	 * leading number of the parameter's value (a Calendar V2 ID `12345-task` names task 12345: spec rule 4).
	 */
	entryReadAt?: string;
	/** For `dateTime`: how the date is sent (default epoch milliseconds). */
	format?: 'epochMs' | 'iso' | 'date';
	/** For `json`: the JSON value must be an array or an object. */
	jsonShape?: 'array' | 'object';
	/** For `fixedCollection`: the fields of one row. */
	fields?: ParamDef[];
	/** For `id`: -1 is also accepted (Lofty's "company level" or "unset"). */
	allowMinusOne?: boolean;
	/** Lofty's error code for this missing field, named in the error raised before sending. */
	requiredCode?: string;
	/** For boolean filters: sent only when switched on. */
	sendOnlyIfTrue?: boolean;
	/** Shown at the top with the required fields although it may stay empty (Create or Update: Email, Phone). */
	top?: boolean;
	/** `options`: shown under "Options" even where the operation's other optional fields are "Filters" (output settings). */
	group?: 'options';
	/** For an optional field: its default is sent when the user leaves it out (where the API's own default is undocumented). */
	sendDefault?: boolean;
	/** For lists in the query: comma-joined (`ids=1,2`, the default) or the key repeated (`ids=1&ids=2`, an OpenAPI array). */
	queryArray?: 'comma' | 'repeat';
	/**
	 * Shown only on node versions below this one: a field a newer version replaced, kept so that workflows saved
	 * with it open and run as before (n8n drops a saved value whose field the description no longer has).
	 */
	before?: number;
	/** Shown only from this node version on (a field whose default changed keeps the old one below it, see `before`). */
	from?: number;
}

export interface BuiltRequest {
	method: IHttpRequestMethods;
	path: string;
	qs: Record<string, QueryValue>;
	body: IDataObject | IDataObject[] | undefined;
}

/**
 * Another reading of the contract the server may follow, where no one request satisfies both (docs/api-readings.md).
 * The node sends the first reading's request; when the answer is a refusal that `detect` recognises, it sends the
 * request `rewrite` makes once, and keeps that reading for the rest of the execution. A refused write was not
 * applied, so sending its other form is not sending a write twice.
 */
export interface OtherReading {
	/** Short name, used to remember the reading during an execution and in docs/api-readings.md. */
	name: string;
	/** The HTTP method under the other reading, when it differs (so that what the node reaches can be listed). */
	method?: IHttpRequestMethods;
	/** What the first reading's request also carries, where that suits the other reading without harming the first. */
	base?: (request: BuiltRequest) => BuiltRequest;
	/** Whether this refusal shows the server reads the request the other way. */
	detect: (failure: { httpCode: number; code?: string | number; message: string }, request: BuiltRequest) => boolean;
	/** The request under the other reading (`values`: the checked fields); throws InvalidValue when it cannot express what the user asked. */
	rewrite: (request: BuiltRequest, values: IDataObject) => BuiltRequest;
	/**
	 * `account`: what was learned holds for the Lofty account (the credential's), in this n8n process, across
	 * executions; unset: for the execution.
	 */
	remember?: 'account';
	/** Whether a refusal of the other reading's request (`detect` again) switches back to the first reading. */
	bothWays?: boolean;
}

export interface OperationContext {
	ctx: IExecuteFunctions;
	itemIndex: number;
	/** Parameter values by parameter name, after validation and conversion. */
	values: IDataObject;
}

/**
 * What an operation does to the world, for a person or a model choosing it (model/effects.ts): `read` changes nothing;
 * `write` creates or changes records that can be changed back; `destructive` removes what the API cannot restore (a
 * delete, a deactivation); `sends` makes Lofty reach a person (a text, an email, a push, an AI that follows up).
 */
export type OperationEffect = 'read' | 'write' | 'destructive' | 'sends';

export interface OperationDef {
	/** Operation value stored in workflows, e.g. `getAll`. */
	value: string;
	/** Title-case name in the picker, e.g. `Get Many`. */
	name: string;
	/** Sentence-case action, e.g. `Get many leads`. */
	action: string;
	description: string;
	method: IHttpRequestMethods;
	/** What the operation does to the world; destructive and sending operations say so in their texts. */
	effect: OperationEffect;
	/** Path with `{placeholders}` filled from `in: 'path'` parameters. */
	path: string;
	params: ParamDef[];
	/** Lists: the pagination style; the node adds Return All and Limit. */
	pagination?: Pagination;
	/** Where the record sits in the answer (`lead` for `{lead: {...}}`, dots for deeper); bare answers pass through. */
	unwrap?: string;
	/** Get and Get Many of records with many fields: the fields the "Simplified" output keeps. */
	simplify?: string[];
	/**
	 * Record fields (dots for nested ones, through arrays) where Lofty answers -1 for "not set": the Simplified and
	 * Selected Fields outputs show null there, as when Lofty answers null; Raw keeps Lofty's answer.
	 */
	unsetNumbers?: string[];
	/**
	 * The node version that brought the Output choice to this operation when version 1 had no Simplify switch
	 * for it: version 1 workflows keep the full record.
	 */
	simplifyFrom?: number;
	/** The team's custom fields this operation writes (a mapper by field name) or reads (Custom Fields By Name). */
	customFields?: CustomFieldSource;
	/**
	 * Operations made of several requests (Create or Update): after the fields are read and checked, this runs
	 * instead of the one request of `method` and `path`, which then name the operation's main endpoint.
	 */
	run?: (op: OperationContext) => Promise<IDataObject | IDataObject[]>;
	/** The answer is XML (published listings); it is returned as `{xml: "..."}`. */
	accept?: 'json' | 'xml';
	/** Explanations for Lofty error codes this operation can meet, by code. */
	errorHints?: Record<string, string>;
	/** Adds to the error description after a failure (for example the valid values fetched from Lofty). */
	explainFailure?: (failure: { httpCode: number; code?: string | number; message: string }, op: OperationContext) => Promise<string | undefined>;
	/** Body fields that are always sent (for example `type: 'Appointment'`); user fields may not override them. */
	fixedBody?: IDataObject;
	/** Body is a JSON array built from this fixedCollection parameter (for example Assign). */
	bodyFromList?: string;
	/** Title of the collection that holds the optional parameters. */
	optionalTitle?: string;
	/** Checks across fields that the spec states, run before any request; it changes no value. */
	validate?: (op: OperationContext) => void;
	/**
	 * After validate: turns checked values into what Lofty expects when that is not one field's own conversion
	 * (a default the spec implies, choices sent as JSON text, a field that one choice makes meaningless).
	 */
	toWire?: (op: OperationContext) => void;
	/** After toWire: looks up what the request needs from Lofty (for example a lead's leadUserId). */
	prepare?: (op: OperationContext) => Promise<void>;
	/** The other reading of an ambiguous contract, detected from Lofty's refusal (see OtherReading). */
	otherReading?: OtherReading;
	/**
	 * Writes: what names the record the item changes (model/turns.ts), where the ID parameters in the path do
	 * not: parameter names (an ID in the body), or a name of one thing of the team (`company`, `licenseSeats`).
	 * Items on one record then run whole (reads of current values, prepare, the write) one after another, in item order.
	 */
	record?: string[];
	/**
	 * The item's turn where `record` cannot say it (model/turns.ts): `keys` from the item's values (a person by every
	 * email and phone given); `scope: 'account'` for a write that sends what the item read first, whose turn holds
	 * across the executions of this n8n process on the same Lofty credential; `reads` for a write that finds its
	 * record by reading: the records a request names (by its path, or by the answer when given), as turn keys.
	 */
	turn?: { keys?: (values: IDataObject) => string[]; scope?: TurnScope; reads?: RecordsRead };
	/**
	 * The path, when it follows from the values rather than from one template (Get Event Record reads the record of
	 * whatever event it is given); `null`: nothing to request, `output` then gets `undefined`.
	 */
	route?: (op: OperationContext) => string | null;
	/**
	 * With `route`: every path template `route` may return, with `{placeholders}` (Get Event Record: the record
	 * lookups). `npm run test:ops` wants each one sent by a node test of the resource and answered 2xx.
	 */
	routes?: string[];
	/**
	 * A write whose answer is only the new record's ID (Task > Create): these values, as sent (times with their
	 * offset), are returned beside the answer, so the output says what was made (model/output.ts sentFacts).
	 */
	returnsSent?: string[];
	/** Shapes the result when the answer alone is not what a user needs (Delete); for lists it gets the records of all pages. */
	output?: (response: unknown, op: OperationContext) => IDataObject | IDataObject[];
	/** The answer is a link to a file, which the node downloads and returns as binary data (see FileDef). */
	file?: FileDef;
	/** A line shown above the fields (for example that a write is asynchronous). */
	notice?: string;
}

/**
 * An operation whose answer is a link to a file (Call > Download Recording): the file is downloaded without Lofty's
 * credential and returned as binary data (model/download.ts). The operation's params carry the local fields
 * `binaryPropertyName` and optionally `fileName`.
 */
export interface FileDef {
	/** The kind of file expected, as a MIME type prefix (`audio/`); an answer of another type is refused. */
	kind: string;
	/** The link in the operation's answer; '' when there is no file. */
	link: (response: unknown) => string;
	/** What the file is, for messages: `the recording of call 123`. */
	subject: (values: IDataObject) => string;
	/** The error when the answer has no link, and its explanation. */
	missing: (values: IDataObject) => string;
	missingWhy?: string;
	/** The file name when neither the answer nor the link names one. */
	fallbackName: (values: IDataObject) => string;
	/** The item's json beside the file's facts (fileName, mimeType, fileSize, linkExpiresAt). */
	json: (values: IDataObject) => IDataObject;
}

export interface ResourceDef {
	value: string;
	name: string;
	description?: string;
	operations: OperationDef[];
	/** Explanations for Lofty error codes that any operation of this resource can meet. */
	errorHints?: Record<string, string>;
}

/** The records a request names, as turn keys (`leadId=1`): by its path, or by its answer when one is given. */
export type RecordsRead = (request: { method: string; path: string }, answer?: unknown) => string[];

/** Where an item's turn holds: within its execution, or across the executions of this n8n process on one Lofty account. */
export type TurnScope = 'execution' | 'account';

/** How Lofty types a custom field, as far as the value to send is concerned. */
export type CustomFieldKind = 'text' | 'number' | 'date' | 'choice' | 'choices';

/** One custom field of the team, as listed by Lofty. */
export interface CustomFieldDefinition {
	/** What a write addresses the field by: its name (lead fields) or its ID (transaction fields). */
	key: string;
	name: string;
	/** The type as Lofty names it (`currency`, `Single-Select`). */
	loftyType: string;
	kind: CustomFieldKind;
	/** Choice fields: the label a user picks and the value sent. */
	options?: Array<{ name: string; value: string }>;
}

/** A family of custom fields (lead fields, transaction fields): where they are listed and how values travel. */
export interface CustomFieldSource {
	/** `lead` or `transaction`, for messages. */
	what: string;
	/** GET path listing the definitions. */
	listPath: string;
	definitions: (response: unknown) => CustomFieldDefinition[];
	/** How a date value is sent. */
	dateFormat: 'epochMs' | 'MMM d, yyyy';
	/** The table's parameter carrying custom field values on the wire: mapped values join its entries. */
	param: string;
	/** One checked value as Lofty takes it. */
	entry: (field: CustomFieldDefinition, value: string) => IDataObject;
	/** The field key of one entry of `param` or of a record. */
	entryKey: (entry: IDataObject) => string;
	/** Where a record holds its values. */
	recordKey: string;
	/** The record's current entries (read before an update by ID that adds choices, or that replaces every value). */
	currentEntries: (op: OperationContext) => Promise<IDataObject[]>;
	/** Writes replace every value (full coverage): the current entries are kept for the fields not mapped. */
	fullCoverage?: boolean;
	/** Name of the resourceMapping method that lists the fields in the editor. */
	mapperMethod: string;
	/** Name of the loadOptions method that lists the multi-choice fields' choices (Multi-Choice Custom Fields). */
	choicesMethod: string;
	/** From node version 1.4 the family's own parameter names (transaction fields), so that the editor lists its fields anew. */
	ownParams?: { mapper: string; choices: string };
}
