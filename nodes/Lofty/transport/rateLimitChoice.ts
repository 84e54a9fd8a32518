/** The credential's Rate Limit choice: the cap the pacer (pacing.ts) keeps below Lofty's announced limit. */

/** Requests per minute for the credential's "Rate Limit" choice; undefined = follow Lofty's headers only. */
export const RATE_LIMIT_PRESETS: Record<string, number | undefined> = {
	auto: undefined,
	development: 100,
	production: 500,
};

/** The user's cap from the credential: a preset name, or 'custom' with a number. */
export function requestsPerMinute(preset: unknown, custom: unknown): number | undefined {
	const name = typeof preset === 'string' && preset ? preset : 'auto';
	if (name === 'custom') {
		const number = Number(custom);
		return Number.isFinite(number) && number >= 1 ? Math.floor(number) : undefined;
	}
	return RATE_LIMIT_PRESETS[name];
}
