/**
 * The token check of a Client Credentials credential (transport/tokenBinding.ts), each branch with a stand-in for
 * GET /v1.0/me: only Lofty's answers are kept, a refusal is told only when Lofty refused, and a check Lofty did not
 * answer stops the request without being kept.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { type Me, type MeAnswer, bindToken, checkTokenBinding } from '../../nodes/Lofty/transport/tokenBinding';

let tokens = 0;
/** A credential with a token never seen in this process. */
const credential = (customerApiKey = 'key-a', grantType = 'clientCredentials'): ICredentialDataDecryptedObject => ({
	grantType,
	clientId: 'client',
	customerApiKey,
	oauthTokenData: { access_token: `token-${++tokens}` },
});

/** A stand-in for GET /v1.0/me: the answer to the Customer Key, then to the token; every call noted. */
function meOf(asKey: MeAnswer, asToken: MeAnswer = asKey): Me & { calls: string[] } {
	const calls: string[] = [];
	const me = async (customerKey?: string) => {
		calls.push(customerKey === undefined ? 'token' : `key ${customerKey}`);
		return customerKey === undefined ? asToken : asKey;
	};
	return Object.assign(me, { calls });
}

describe('checkTokenBinding', () => {
	it('checks nothing for other grant types; a credential without a token binds the next one to its key', async () => {
		const me = meOf({ user: '1' });
		expect(await checkTokenBinding(credential('k', 'authorizationCode'), me)).toEqual({});
		const none = { ...credential(), oauthTokenData: {} };
		expect((await checkTokenBinding(none, me)).bindNext).toMatch(/^[0-9a-f]{16}$/);
		expect(me.calls).toEqual([]);
	});

	it('the same user for the key and the token: used, and kept (the next check asks Lofty nothing)', async () => {
		const c = credential();
		const me = meOf({ user: '7' });
		expect(await checkTokenBinding(c, me)).toEqual({});
		expect(me.calls).toEqual(['key key-a', 'token']);
		expect(await checkTokenBinding(c, me)).toEqual({});
		expect(me.calls).toHaveLength(2);
	});

	it('a token kept for another key is refused without asking Lofty', async () => {
		const c = credential('key-a');
		await checkTokenBinding(c, meOf({ user: '7' }));
		const me = meOf({ user: '7' });
		const check = await checkTokenBinding({ ...c, customerApiKey: 'key-b' }, me);
		expect(check.refused?.message).toBe("The OAuth2 credential's token was issued for another Customer Key or Client ID than the credential has now");
		expect(me.calls).toEqual([]);
	});

	it('a token n8n fetched while the node watched is bound to its key', async () => {
		const c = credential('key-a');
		const key = (await checkTokenBinding({ ...c, oauthTokenData: {} }, meOf({ user: '1' }))).bindNext!;
		bindToken(c, key);
		const me = meOf({ user: '1' });
		expect(await checkTokenBinding(c, me)).toEqual({});
		expect(me.calls).toEqual([]);
	});

	it('another user for the token than for the key: refused, naming both', async () => {
		const check = await checkTokenBinding(credential(), meOf({ user: '7' }, { user: '8' }));
		expect(check.refused?.message).toBe("The OAuth2 credential's token acts as Lofty user 8, its Customer Key belongs to user 7");
		expect(check.unanswered).toBeUndefined();
	});

	it('Lofty refused the key: refused, saying what Lofty answered; the token is not asked', async () => {
		const me = meOf({ refused: 'HTTP 401 BAD_CREDENTIALS' });
		const check = await checkTokenBinding(credential(), me);
		expect(check.refused?.message).toBe('Lofty refused the Customer Key of the OAuth2 credential, and the token it holds was issued for another one');
		expect(check.refused?.description).toMatch(/^Lofty answered HTTP 401 BAD_CREDENTIALS to the Customer Key sent as an API key\./);
		expect(me.calls).toEqual(['key key-a']);
	});

	it('Lofty refused the token (an app not granted GET /v1.0/me): used unchecked, and not kept', async () => {
		const c = credential();
		const me = meOf({ user: '7' }, { refused: 'HTTP 403 200100' });
		expect(await checkTokenBinding(c, me)).toEqual({});
		await checkTokenBinding(c, me);
		expect(me.calls).toEqual(['key key-a', 'token', 'key key-a', 'token']);
	});

	it.each<[string, MeAnswer, MeAnswer]>([
		['the key', { unanswered: 'Lofty error (HTTP 429)' }, { user: '7' }],
		['the token', { user: '7' }, { unanswered: 'Lofty did not answer GET /v1.0/me within 30 s (tried 4 times)' }],
	])('Lofty did not answer the check of %s: stopped saying so, never a refusal, and not kept', async (_, asKey, asToken) => {
		const c = credential();
		const me = meOf(asKey, asToken);
		const check = await checkTokenBinding(c, me);
		expect(check.refused).toBeUndefined();
		expect(check.unanswered?.message).toBe("Lofty did not answer the check of the OAuth2 credential's token (GET /v1.0/me)");
		const why = 'unanswered' in asKey ? asKey.unanswered : (asToken as { unanswered: string }).unanswered;
		expect(check.unanswered?.description.startsWith(`${why}. `)).toBe(true);
		const calls = me.calls.length;
		await checkTokenBinding(c, me);
		expect(me.calls.length).toBe(calls * 2);
	});
});
