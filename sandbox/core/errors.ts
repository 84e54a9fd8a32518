/**
 * Error codes of the sandbox and the ApiError carrying them.
 * Numeric where api-spec.md (or the OpenAPI, where the spec is silent) gives a number,
 * otherwise the code name as a string.
 */

export const Codes = {
	BAD_CREDENTIALS: 'BAD_CREDENTIALS',
	USER_IN_TOKEN_NOT_EXIST: 200058,
	SCOPE_MISSING: 200100,
	CONTENT_TYPE: 20001,
	INVALID_PARAMETER: 20012,
	MISSING_PARAMETER: 'MISSING_PARAMETER',
	LIMIT_NOT_VALID: 'LIMIT_NOT_VALID',
	LIMIT_PARAM_OVERSIZE: 'LIMIT_PARAM_OVERSIZE',
	LEAD_NOT_EXIST: 'LEAD_NOT_EXIST',
	USER_NOT_EXIST: 'USER_NOT_EXIST',
	RESOURCE_NOT_EXIST: 'RESOURCE_NOT_EXIST',
	PERMISSION_DENIED: 'PERMISSION_DENIED',
	PARAM_FIRST_NAME_FILL: 'PARAM_FIRST_NAME_FILL',
	PARAM_EMAIL_MUST_FILL: 'PARAM_EMAIL_MUST_FILL',
	PROPERTY_ADDRESS_EMPTY: 200057,
	LEAD_PROPERTY_NOT_EXIST: 200108,
} as const;

export type ErrorCode = string | number;

export class ApiError extends Error {
	/** When true the body is written as a bare JSON string (GET /v1.0/systemLogs). */
	plainString = false;
	constructor(
		readonly status: number,
		readonly code: ErrorCode,
		message: string,
	) {
		super(message);
		this.name = 'ApiError';
	}

	body(): unknown {
		const obj = { code: this.code, message: this.message };
		return this.plainString ? JSON.stringify(obj) : obj;
	}
}

export const invalidParam = (message: string): ApiError =>
	new ApiError(400, Codes.INVALID_PARAMETER, `INVALID_PARAMETER: ${message}`);
export const missingParam = (name: string): ApiError =>
	new ApiError(400, Codes.MISSING_PARAMETER, `Required parameter '${name}' is missing`);
export const leadNotExist = (id: string): ApiError =>
	new ApiError(404, Codes.LEAD_NOT_EXIST, `Lead ${id} does not exist or is not accessible`);
export const userNotExist = (what: string): ApiError =>
	new ApiError(404, Codes.USER_NOT_EXIST, `User ${what} does not exist in the team`);
export const limitNotValid = (min: number, max: number, raw: string): ApiError =>
	new ApiError(400, Codes.LIMIT_NOT_VALID, `limit must be between ${min} and ${max}, got '${raw}'`);
