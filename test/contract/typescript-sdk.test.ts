/**
 * The TypeScript example (openapi-fetch on the generated types) against the live service,
 * directly and through a proxy that adds a field no spec names to every response object.
 */
import { createSnapAndComms } from '../../examples/typescript/create-snap-and-comms';
import { exampleTests } from './support/example-tests';

describe('TypeScript SDK example', () => {
  exampleTests('TypeScript (openapi-fetch)', createSnapAndComms);
});
