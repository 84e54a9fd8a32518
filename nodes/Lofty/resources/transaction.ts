import type { ResourceDef } from '../model/types';

export const transaction: ResourceDef = {
	value: 'transaction',
	name: 'Transaction',
	description: 'Deals: transactions, pipelines, property addresses',
	operations: [],
};
