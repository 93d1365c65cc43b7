import { type OperationId, operations } from '@svc/contracts';
import { describe, expect, it } from 'vitest';
import { handlerOf, operationHandlers } from '../src/http/operation-handlers.ts';

// the table is checked only while OperationId names the catalog's ids, not any string
// @ts-expect-error an id outside the catalog is no OperationId
const outsideCatalog: OperationId = 'notAnOperation';

describe('the /v1 table', () => {
  it('answers every operation of the catalog with a handler built for that operation', () => {
    for (const operation of operations) expect(handlerOf(operation).operation, operation.operationId).toBe(operation);
  });

  it('holds no handler beyond the catalog', () => {
    expect(Object.keys(operationHandlers).sort()).toEqual(operations.map((operation) => operation.operationId).sort());
    expect(outsideCatalog in operationHandlers).toBe(false);
  });
});
