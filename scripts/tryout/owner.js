/**
 * The n8n owner account of the try-out (scripts/start.js): the bcrypt hash of its password, made with n8n's
 * own bcryptjs and kept in the state while the login is unchanged.
 */
'use strict';

const path = require('path');
const { OWNER, sha } = require('./config');

function bcryptHash(rt, password, state) {
	if (state.owner?.email === OWNER.email && state.owner?.passwordSha === sha(password) && state.owner?.hash) return state.owner.hash;
	const n8nModules = path.dirname(path.dirname(path.dirname(rt.n8nBin))); // .../node_modules
	const bcrypt = require(require.resolve('bcryptjs', { paths: [n8nModules] }));
	const hash = bcrypt.hashSync(password, 10);
	state.owner = { email: OWNER.email, passwordSha: sha(password), hash };
	return hash;
}

module.exports = { bcryptHash };
