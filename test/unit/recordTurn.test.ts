/** Which values name the record of a write, derived from the resource tables (model/recordTurn.ts). */
import { recordKeys, recordParams } from '../../nodes/Lofty/model/recordTurn';
import { findOperation } from '../../nodes/Lofty/resources';

const op = (resource: string, operation: string) => findOperation(resource, operation)!.op;

describe('record turns from the tables', () => {
	it('a write is named by the IDs in its path; reads and plain creates take no turn', () => {
		expect(recordKeys(op('lead', 'update'), { leadId: '9007199254740993', firstName: 'A' })).toEqual(['leadId=9007199254740993']);
		expect(recordKeys(op('transaction', 'update'), { leadId: '1', transactionId: '2' })).toEqual(['leadId=1', 'transactionId=2']);
		expect(recordKeys(op('lead', 'get'), { leadId: '1' })).toEqual([]);
		expect(recordKeys(op('lead', 'getAll'), {})).toEqual([]);
		expect(recordKeys(op('lead', 'create'), { firstName: 'A' })).toEqual([]);
	});

	it('an ID in the body, or one thing of the team, is named by the table', () => {
		expect(recordKeys(op('organization', 'updateOffice'), { officeId: '12347', name: 'X' })).toEqual(['officeId=12347']);
		expect(recordKeys(op('organization', 'updateCompany'), { name: 'X' })).toEqual(['#company']);
		expect(recordKeys(op('salesAgent', 'updateSettings'), { id: '5', assistantName: 'X' })).toEqual(['#salesAgent']);
		expect(recordKeys(op('agent', 'reactivate'), { agentId: '7' })).toEqual(['agentId=7', '#licenseSeats']);
		expect(recordKeys(op('transaction', 'syncFromBrokermint'), { transactionId: '9' })).toEqual(['transactionId=9']);
		expect(recordKeys(op('transaction', 'updatePropertyAddress'), { leadId: '1', transactionId: '9' })).toEqual(['leadId=1', 'transactionId=9']);
		expect(recordKeys(op('agent', 'addTags'), { agentId: '7', tagNames: ['VIP', 'Hot'] })).toEqual(['agentId=7', 'tagNames=VIP', 'tagNames=Hot']);
		// A record parameter left empty names nothing.
		expect(recordKeys(op('lead', 'syncFromBrokermint'), { email: 'a@b.co' })).toEqual([]);
		expect(recordParams(op('organization', 'createOffice'))).toEqual([]);
	});
});
