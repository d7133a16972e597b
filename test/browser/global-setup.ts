import { buildConsole } from '../../scripts/build-console.ts';

/** The console's assets, built into the folder a source receiver serves them from. */
export default async function setup() {
  await buildConsole();
}
