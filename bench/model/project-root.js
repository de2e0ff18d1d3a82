// @ts-check
// This repository's root: the built-in targets run from it, and results/ and profiles/ default to it.
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
