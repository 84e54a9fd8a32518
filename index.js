// n8n loads the package through the `n8n` section of package.json; this entry only lists what it ships.
module.exports = {
	nodes: ['dist/nodes/Lofty/Lofty.node.js', 'dist/nodes/LoftyTrigger/LoftyTrigger.node.js'],
	credentials: ['dist/credentials/LoftyApi.credentials.js', 'dist/credentials/LoftyOAuth2Api.credentials.js'],
};
