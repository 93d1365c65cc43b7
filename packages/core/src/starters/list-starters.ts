import { starters } from './catalog.ts';
import type { Starter } from './starter.ts';

export type { Starter, StarterOutput } from './starter.ts';

/** The starter gallery: every template a user can copy into their account. */
export function listStarters(): readonly Starter[] {
  return starters;
}

/** One starter by its gallery id, or undefined. */
export function findStarter(id: string): Starter | undefined {
  return starters.find((starter) => starter.id === id);
}
