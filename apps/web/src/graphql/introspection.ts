import { DomainError } from '@svc/core';
import { GraphQLError, type ValidationRule } from 'graphql';

/**
 * Refuses any query that reads the schema (__schema, __type) while the IDE is off. The
 * refusal carries a DomainError, so it leaves as the error table's introspection_disabled
 * with its fixed message (formatGraphqlError), not as a hint about the server library.
 */
export const refuseIntrospection: ValidationRule = (context) => ({
  Field(node) {
    if (node.name.value !== '__schema' && node.name.value !== '__type') return;
    context.reportError(new GraphQLError('introspection refused', { nodes: [node], originalError: new DomainError('introspection_disabled') }));
  },
});
