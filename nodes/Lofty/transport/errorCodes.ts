/**
 * Every error code api-spec.md names (its Errors section), with the condition it states. An answer whose body
 * is only the code, as a bare JSON string ("PARAM_EMAIL_MUST_FILL"), is read as that code with this text as its
 * message, so it is explained like a `{code, message}` body (docs/api-readings.md, row 14).
 */
export const LOFTY_ERROR_CODES: Record<string, string> = {
	// Authentication and permission
	'200100': 'the token lacks the scope of this endpoint',
	'200058': 'the user in the token does not exist (an API key sent as Bearer)',
	BAD_CREDENTIALS: 'invalid API key or access token',
	VENDOR_HAS_NO_PERMISSION: 'the application has no access to this API',
	PERMISSION_DENIED: 'the user lacks the required role or access',
	NO_ACCESS_WEBSITE: "no access to the user's listing data",
	ACCESS_ALL_TEAM_LEADS: 'a team-wide communication search needs the Access All Team Leads permission',
	'20017': 'permission denied',
	// Validation
	INVALID_PARAMETER: 'an invalid or missing parameter',
	'20012': 'an invalid or missing parameter',
	MISSING_PARAMETER: 'a required parameter is missing',
	LIMIT_NOT_VALID: 'limit is out of range (typically 1 to 100)',
	LIMIT_PARAM_OVERSIZE: "limit is above the endpoint's maximum",
	PARAMETER_TOO_LONG: 'a text parameter is too long',
	LISTING_LIMIT_NOT_VALID: 'the listing search limit is out of range',
	'20001': 'the request lacked Content-Type: application/json',
	// Not found
	LEAD_NOT_EXIST: 'the lead does not exist or is not accessible',
	LEAD_NOT_FOUND: 'the lead was not found',
	TASK_NOT_EXIST: 'the task or appointment does not exist',
	TRANSACTION_NOT_EXIST: 'the transaction does not exist',
	USER_NOT_EXIST: 'the user does not exist',
	RESOURCE_NOT_EXIST: 'the record does not exist',
	ALERT_CONDITION_FEGIN_FAIL: 'the listing alert condition lookup failed',
	// Lead, transaction, task, custom field
	PARAM_FIRST_NAME_FILL: 'firstName is required when resolving assignees',
	PARAM_EMAIL_MUST_FILL: 'email is required when resolving assignees',
	INVALID_UPDATE_OPERATION_LEADID: 'an invalid lead ID in the update',
	TRANSACTION_NAME_BLANK: 'the transaction name is empty',
	TRANSACTION_NAME_HTML: 'the transaction name contains HTML',
	'200125': "the status is not in the team's pipeline for the transaction type",
	TRANSACTION_STATUS_INVALID: "the status is not in the team's pipeline for the transaction type",
	TASK_IS_SMARTPLAN: 'the task belongs to a Smart Plan and cannot be modified',
	ATTRIBUTE_NAME_EMPTY: 'the custom field name is missing',
	ATTRIBUTE_TYPE_EMPTY: 'the custom field type is missing',
	// Routing (spellings as given)
	BUSINESS_TYPE_ERROR: 'an unknown routing business type',
	STRATEGY_TYPE_ERROR: 'an unknown routing strategy type',
	STRATEGY_TYPE_NOT_MATCH: 'the routing strategy does not fit the business type',
	INVAID_ROLE_ID: 'an invalid role ID',
	INVAID_ID: 'an invalid routing rule ID',
	INVAID_GROUP_ID: 'an invalid group or office ID',
	INVAID_ACTIVE_HOURS: 'invalid active hours',
	INVAID_ACTIVE_DAY: 'an invalid active day',
	INVAID_MEMBER_WEIGHT: 'an invalid member weight',
	INVAID_TOUCHMINUTES: 'invalid touch minutes',
	// Webhooks
	WEBHOOK_CALLBACK_URL_INVALID: 'the callback URL is not a valid HTTPS URL',
	WEBHOOK_EXCEED_LIMIT: 'the maximum number of subscriptions is reached',
	WEBHOOK_DELETE_NOT_EXIST: 'the subscription does not exist',
	WEBHOOK_DELETE_NO_AUTHORITY: 'the subscription belongs to another caller',
	// Agent lifecycle
	'990105': 'the agent is already deactivated',
	'990106': 'the target is an office or team owner',
	'990107': 'the caller targets its own account',
	'990112': 'the agent is already active',
	'990113': 'the agent has not completed onboarding',
	'310111': 'no free seat to reactivate the agent',
	SEAT_INSUFFICIENT: 'no free seat to reactivate the agent',
	'1900012': 'the caller lacks Manage Team Agent',
	// Other
	'20005': 'an internal error',
};
