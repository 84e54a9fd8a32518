import { InvalidValue } from '../../model/params';
import type { ResourceDef } from '../../model/types';
import { leadInPath } from '../lead';

export const systemLog: ResourceDef = {
	value: 'systemLog',
	name: 'System Log',
	description: 'The system-event timeline of a lead (stage changes, assignments, smart-plan tasks)',
	operations: [
		{
			value: 'getAll',
			name: 'Get Many',
			action: 'Get the system change log of a lead',
			description: 'System and change-log events of a lead, newest first; entries are passed through untouched',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/systemLogs',
			pagination: { style: 'page', itemsKey: 'timeLines', hasMoreKey: 'hasMore', maxPageSize: 1000, pageParam: 'pageNumber', sizeParam: 'pageSize' },
			params: [
				{ ...leadInPath, in: 'query' },
				{ name: 'startTime', label: 'From', type: 'dateTime', in: 'query', description: 'Only events at or after this time' },
				{ name: 'endTime', label: 'To', type: 'dateTime', in: 'query', description: 'Only events at or before this time' },
			],
			validate(op) {
				const { startTime, endTime } = op.values;
				if (startTime !== undefined && endTime !== undefined && (startTime as number) > (endTime as number)) {
					throw new InvalidValue('From', 'must not be later than To');
				}
			},
		},
	],
};
