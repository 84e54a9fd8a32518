/** FNV-1a, twice with different seeds: identifies a key without keeping or revealing it. */
export function fingerprint(text: string): string {
	let a = 0x811c9dc5;
	let b = 0x01000193 ^ text.length;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		a = Math.imul(a ^ c, 0x01000193) >>> 0;
		b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
	}
	return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/**
 * The pacing key of a credential: its type, base URL and a fingerprint of what identifies the
 * application (the API key, or the OAuth client ID, else the access token). Never the secret itself.
 */
export function pacingKey(credentialType: string, baseUrl: string, identity: string): string {
	return `${credentialType} ${baseUrl} ${fingerprint(identity)}`;
}
