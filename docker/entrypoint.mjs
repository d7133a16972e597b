// Container entrypoint: applies a seed mounted at the documented path (docs/testing.md) without
// making it mandatory, then runs the receiver CLI with the container command as its flags.
import { existsSync } from 'node:fs';

const MOUNTED_SEED = '/etc/reslog/seed.json';
if (!process.env.RESLOG_SEED && existsSync(MOUNTED_SEED)) process.env.RESLOG_SEED = MOUNTED_SEED;

await import('../dist/receiver/cli.js');
